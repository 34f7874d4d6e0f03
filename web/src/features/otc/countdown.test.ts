import { describe, expect, it } from 'vitest';
import { formatCountdown, remainingMs } from './countdown';

describe('OTC countdown (HH:mm:ss)', () => {
  it('writes hours, minutes and seconds with two digits each', () => {
    expect(formatCountdown(15 * 60 * 1000)).toBe('00:15:00');
    expect(formatCountdown((2 * 3600 + 3 * 60 + 4) * 1000)).toBe('02:03:04');
    expect(formatCountdown(59_000)).toBe('00:00:59');
  });

  it('rounds part of a second up, so 00:00:00 means the window has ended', () => {
    expect(formatCountdown(400)).toBe('00:00:01');
    expect(formatCountdown(14 * 60 * 1000 + 59_001)).toBe('00:15:00');
    expect(formatCountdown(0)).toBe('00:00:00');
  });

  it('never goes negative and keeps counting hours past a day', () => {
    expect(formatCountdown(-5000)).toBe('00:00:00');
    expect(formatCountdown(Number.NaN)).toBe('00:00:00');
    expect(formatCountdown(100 * 3600 * 1000)).toBe('100:00:00');
  });

  it('counts to the deadline by the server’s clock', () => {
    const deadline = '2026-11-26T10:15:00.000Z';
    const device = Date.parse('2026-11-26T10:00:00.000Z');
    expect(remainingMs(deadline, device)).toBe(15 * 60 * 1000);
    // The server runs a minute ahead of the phone: a minute less is left.
    expect(remainingMs(deadline, device, 60_000)).toBe(14 * 60 * 1000);
    expect(remainingMs(deadline, device + 20 * 60 * 1000)).toBe(0);
    expect(remainingMs('not a time', device)).toBe(0);
  });
});
