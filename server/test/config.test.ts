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
