import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

describe('configuration', () => {
  it('defaults to PGlite in ./data on port 8080', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.database).toMatchObject({ kind: 'pglite' });
    expect(config.platformTimeZone).toBe('Asia/Shanghai');
  });

  it('uses PostgreSQL when DATABASE_URL is set', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@db:5432/custos' }).database).toEqual({
      kind: 'postgres',
      url: 'postgres://u:p@db:5432/custos',
      poolSize: 20,
    });
  });

  it('refuses bad values with one message naming each', () => {
    expect(() => loadConfig({ PORT: 'eighty', PLATFORM_TIME_ZONE: 'Mars/Olympus', DATABASE_URL: 'mysql://x' })).toThrow(
      ConfigError,
    );
    try {
      loadConfig({ PORT: 'eighty', PLATFORM_TIME_ZONE: 'Mars/Olympus' });
    } catch (error) {
      expect((error as Error).message).toMatch(/PORT/);
      expect((error as Error).message).toMatch(/PLATFORM_TIME_ZONE is not an IANA time zone/);
    }
  });
});

describe('TRUST_PROXY', () => {
  it('is off when unset, empty or false', () => {
    for (const value of [undefined, '', 'false']) expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toBeUndefined();
  });

  it('reads a number as a hop count, not as the address 0.0.0.1', () => {
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toEqual({ hops: 1 });
    expect(loadConfig({ TRUST_PROXY: ' 2 ' }).trustProxy).toEqual({ hops: 2 });
  });

  it('reads addresses, CIDR ranges and named ranges as the proxies to trust', () => {
    expect(loadConfig({ TRUST_PROXY: '10.0.0.5, 10.1.0.0/16,fd00::/8, ::1 ,loopback' }).trustProxy).toEqual({
      addresses: ['10.0.0.5', '10.1.0.0/16', 'fd00::/8', '::1', 'loopback'],
    });
  });

  it.each([
    ['true', /TRUST_PROXY true would let a client choose its own address/],
    ['0', /TRUST_PROXY must be a hop count from 1 to 10/],
    ['11', /TRUST_PROXY must be a hop count from 1 to 10/],
    ['1,10.0.0.1', /TRUST_PROXY mixes a hop count \("1"\) with addresses/],
    ['10.1', /TRUST_PROXY "10.1" is not an IP address/],
    ['proxy.example', /TRUST_PROXY "proxy.example" is not an IP address/],
    ['10.0.0.1,', /TRUST_PROXY "" is not an IP address/],
    ['0.0.0.0/0', /TRUST_PROXY "0.0.0.0\/0" trusts every address/],
    ['::/0', /TRUST_PROXY "::\/0" trusts every address/],
    ['10.0.0.0/33', /TRUST_PROXY "10.0.0.0\/33" has no valid prefix length/],
    ['10.0.0.0/8/1', /TRUST_PROXY "10.0.0.0\/8\/1" is not an IP address/],
  ])('refuses %s at start with one line naming TRUST_PROXY', (value, message) => {
    let thrown: unknown;
    try {
      loadConfig({ TRUST_PROXY: value });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as Error).message).toMatch(message);
    expect((thrown as Error).message).not.toContain('\n');
  });
});
