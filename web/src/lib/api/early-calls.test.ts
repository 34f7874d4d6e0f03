import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getUserAssets } from '../../api/get-user-assets';
import { USER_ASSETS_PATH } from '../../api/paths';
import { credential } from '../auth/credential';
import { apiRequest } from './client';
import { EARLY_ANSWER_MAX_AGE_MS, startEarlyCall, takeEarlyCall } from './early-calls';
import { userAssetsResponse } from '@custos/contract';

const ASSETS = {
  totalUsdt: '12.5000',
  cashUsdt: '10.0000',
  custodyUsdt: '2.5000',
  rabPriceUsdt: '0.1000',
  USDT: { available: '10.0000', held: '0.0000' },
  RAB: { available: '0.0000', held: '0.0000' },
  FUEL: { available: '0.0000', held: '0.0000' },
  TICKET: { available: '0.0000', used: '0.0000' },
};

function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
}

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  vi.stubGlobal('localStorage', memoryStorage());
  fetchMock.mockReset();
  fetchMock.mockImplementation(async () => Response.json({ code: 200, message: 'ok', data: ASSETS }));
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  // Whatever a test sent and left untaken does not reach the next one.
  takeEarlyCall(USER_ASSETS_PATH, {});
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('early reads (decision 047)', () => {
  it('are sent only for a member, with the credential and language the client would send', () => {
    startEarlyCall(USER_ASSETS_PATH, 'en');
    expect(fetchMock).not.toHaveBeenCalled();

    credential.set('token-a');
    startEarlyCall(USER_ASSETS_PATH, 'ja');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('api/user/assets');
    expect(init?.method).toBe('GET');
    expect(init?.headers).toEqual({ lang: 'JP', accept: 'application/json', Authorization: 'token-a' });
    // Sent once, however often it is asked for.
    startEarlyCall(USER_ASSETS_PATH, 'ja');
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('are taken once, and only with the same credential and language', () => {
    credential.set('token-a');
    startEarlyCall(USER_ASSETS_PATH, 'en');
    expect(takeEarlyCall(USER_ASSETS_PATH, { Authorization: 'token-a', lang: 'EN' })).not.toBeNull();
    expect(takeEarlyCall(USER_ASSETS_PATH, { Authorization: 'token-a', lang: 'EN' })).toBeNull();

    startEarlyCall(USER_ASSETS_PATH, 'en');
    expect(takeEarlyCall(USER_ASSETS_PATH, { Authorization: 'token-b', lang: 'EN' })).toBeNull();
    startEarlyCall(USER_ASSETS_PATH, 'en');
    expect(takeEarlyCall(USER_ASSETS_PATH, { Authorization: 'token-a', lang: 'KO' })).toBeNull();
    expect(takeEarlyCall('/api/user/info', { Authorization: 'token-a', lang: 'EN' })).toBeNull();
  });

  it('are not shown once too old: the screen asks again', () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout'] });
    credential.set('token-a');
    startEarlyCall(USER_ASSETS_PATH, 'en');
    vi.advanceTimersByTime(EARLY_ANSWER_MAX_AGE_MS + 1);
    expect(takeEarlyCall(USER_ASSETS_PATH, { Authorization: 'token-a', lang: 'EN' })).toBeNull();
  });

  it('answer the client instead of a second request', async () => {
    credential.set('token-a');
    startEarlyCall(USER_ASSETS_PATH, 'zh-Hans');
    await expect(getUserAssets()).resolves.toEqual(ASSETS);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    // The next read of the same path is the client's own.
    await expect(getUserAssets()).resolves.toEqual(ASSETS);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('are not taken by a read with a query or another method', async () => {
    credential.set('token-a');
    startEarlyCall(USER_ASSETS_PATH, 'zh-Hans');
    await apiRequest({ method: 'GET', path: USER_ASSETS_PATH, query: { page: 1 }, data: userAssetsResponse });
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(fetchMock.mock.calls[1]?.[0]).toBe('api/user/assets?page=1');
  });
});
