import { describe, expect, it } from 'vitest';
import { formatDateTime, getPlatformTimeZone, setPlatformTimeZone } from './time';

describe('record times', () => {
  it('are shown in the platform time zone, in one numeric form', () => {
    expect(formatDateTime('2025-03-01T10:04:05.000Z', 'Asia/Shanghai')).toBe('2025-03-01 18:04:05');
    expect(formatDateTime('2025-12-31T16:00:00.000Z', 'Asia/Shanghai')).toBe('2026-01-01 00:00:00');
    expect(formatDateTime('2025-03-01T10:04:05.000Z', 'UTC')).toBe('2025-03-01 10:04:05');
  });

  it('use the configured zone, ignoring one the device does not know', () => {
    expect(getPlatformTimeZone()).toBe('Asia/Shanghai');
    setPlatformTimeZone('Not/AZone');
    expect(getPlatformTimeZone()).toBe('Asia/Shanghai');
    setPlatformTimeZone('Asia/Bangkok');
    expect(formatDateTime('2025-03-01T10:04:05.000Z')).toBe('2025-03-01 17:04:05');
    setPlatformTimeZone('Asia/Shanghai');
  });
});
