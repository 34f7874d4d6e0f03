import { describe, expect, it } from 'vitest';
import { HOME_PATH, LOGIN_PATH, pathOfHash, startupRedirect } from './startup';

describe('start-up rule', () => {
  it('lets visitors open download, register, register verify code and my', () => {
    for (const path of ['/pages/download/download', '/pages/register/register', '/pages/register/verify_code', '/pages/my/my']) {
      expect(startupRedirect(path, false), path).toBeNull();
      expect(startupRedirect(path, true), path).toBeNull();
    }
  });

  it('sends visitors without a credential anywhere else to log-in', () => {
    expect(startupRedirect('/pages/index/index', false)).toBe(LOGIN_PATH);
    expect(startupRedirect('/pages/withdraw/withdraw', false)).toBe(LOGIN_PATH);
    expect(startupRedirect('/', false)).toBeNull();
    expect(startupRedirect(LOGIN_PATH, false)).toBeNull();
  });

  it('sends a member with a credential from the entry page to the home tab, keeping deep links', () => {
    expect(startupRedirect('/', true)).toBe(HOME_PATH);
    expect(startupRedirect(LOGIN_PATH, true)).toBe(HOME_PATH);
    expect(startupRedirect('/pages/withdraw/withdraw', true)).toBeNull();
  });

  it('reads the path out of a hash', () => {
    expect(pathOfHash('')).toBe('/');
    expect(pathOfHash('#/')).toBe('/');
    expect(pathOfHash('#/pages/register/register?code=ABC')).toBe('/pages/register/register');
  });
});
