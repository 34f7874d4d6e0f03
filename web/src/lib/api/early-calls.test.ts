import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LANG_HEADER_BY_LOCALE, LOCALES, userAssetsResponse } from '@custos/contract';
import { type LaunchMap, preloadLaunch } from '../../../build/launch-script';
import { getUserAssets } from '../../api/get-user-assets';
import { USER_ASSETS_PATH } from '../../api/paths';
import { HOME_PATH, LOGIN_PATH } from '../../app/startup';
import { apiRequest } from './client';
import { EARLY_ANSWER_MAX_AGE_MS, takeEarlyCall } from './early-calls';
import { FIRST_FRAME_HOLD_LIMIT_MS, holdReadsForFirstFrame } from './first-frame';

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

const MAP: LaunchMap = {
  credentialKey: 'Authorization',
  localeKey: 'custos.locale',
  locales: [...LOCALES],
  defaultLocale: 'zh-Hans',
  openToVisitors: [],
  loginPath: LOGIN_PATH,
  homePath: HOME_PATH,
  noServerMessages: [],
  files: [],
  routes: {},
  languages: {},
  calls: { [HOME_PATH]: [USER_ASSETS_PATH] },
  langHeaders: LANG_HEADER_BY_LOCALE,
  timeoutMs: 60_000,
};

/** The page's launch script, run for a member opening Home in `locale`. */
function launchOnHome(token: string, locale: string): void {
  const stored: Record<string, string> = { Authorization: token, 'custos.locale': locale };
  vi.stubGlobal('location', { hash: `#${HOME_PATH}` });
  vi.stubGlobal('localStorage', { getItem: (key: string) => stored[key] ?? null });
  preloadLaunch(MAP);
  // The app's own storage (its credential) is the one the client reads.
  localStorage.getItem = (key: string) => stored[key] ?? null;
}

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  fetchMock.mockReset();
  fetchMock.mockImplementation(async () => Response.json({ code: 200, message: 'ok', data: ASSETS }));
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  globalThis.__custosLaunchCalls = undefined;
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('early reads (decision 047)', () => {
  it('are taken once, and only with the same credential and language', () => {
    launchOnHome('token-a', 'en');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(takeEarlyCall(USER_ASSETS_PATH, { Authorization: 'token-a', lang: 'EN' })).not.toBeNull();
    expect(takeEarlyCall(USER_ASSETS_PATH, { Authorization: 'token-a', lang: 'EN' })).toBeNull();

    launchOnHome('token-a', 'en');
    expect(takeEarlyCall(USER_ASSETS_PATH, { Authorization: 'token-b', lang: 'EN' })).toBeNull();
    launchOnHome('token-a', 'en');
    expect(takeEarlyCall(USER_ASSETS_PATH, { Authorization: 'token-a', lang: 'KO' })).toBeNull();
    expect(takeEarlyCall('/api/user/info', { Authorization: 'token-a', lang: 'EN' })).toBeNull();
  });

  it('are not shown once too old: the screen asks again', () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout'] });
    launchOnHome('token-a', 'en');
    vi.advanceTimersByTime(EARLY_ANSWER_MAX_AGE_MS + 1);
    expect(takeEarlyCall(USER_ASSETS_PATH, { Authorization: 'token-a', lang: 'EN' })).toBeNull();
  });

  it('answer the client instead of a second request', async () => {
    launchOnHome('token-a', 'zh-Hans');
    await expect(getUserAssets()).resolves.toEqual(ASSETS);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    // The next read of the same path is the client's own.
    await expect(getUserAssets()).resolves.toEqual(ASSETS);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('are not taken by a read with a query', async () => {
    launchOnHome('token-a', 'zh-Hans');
    await apiRequest({ method: 'GET', path: USER_ASSETS_PATH, query: { page: 1 }, data: userAssetsResponse });
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(fetchMock.mock.calls[1]?.[0]).toBe('api/user/assets?page=1');
  });
});

describe('the first frame (decision 048)', () => {
  it("holds every read but the launch script's own until it is on screen", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    launchOnHome('token-a', 'zh-Hans');
    holdReadsForFirstFrame();
    // The early answer is taken at once; another read waits for the frame.
    await expect(getUserAssets()).resolves.toEqual(ASSETS);
    const other = apiRequest({ method: 'GET', path: USER_ASSETS_PATH, data: userAssetsResponse });
    await vi.advanceTimersByTimeAsync(FIRST_FRAME_HOLD_LIMIT_MS - 1);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    // No frame was reported here: the hold's limit sends it.
    await vi.advanceTimersByTimeAsync(1);
    await expect(other).resolves.toEqual(ASSETS);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});
