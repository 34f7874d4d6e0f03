import { describe, expect, it } from 'vitest';
import { marqueeDurationS } from './marquee-timing';

describe('notice marquee timing', () => {
  it('scrolls at 50 px a second, never faster than one second a pass', () => {
    expect(marqueeDurationS(500)).toBe(10);
    expect(marqueeDurationS(20)).toBe(1);
    expect(marqueeDurationS(0)).toBe(1);
  });
});
