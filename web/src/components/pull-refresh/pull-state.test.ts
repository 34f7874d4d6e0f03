import { describe, expect, it } from 'vitest';
import { HEAD_HEIGHT_PX, THRESHOLD_PX, pulledHeight, statusWhilePulling } from './pull-state';

describe('pull to refresh', () => {
  it('the head follows the finger more and more slowly, never past its bound', () => {
    expect(pulledHeight(0)).toBe(0);
    expect(pulledHeight(-30)).toBe(0);
    const heights = [20, 60, 120, 240, 480, 2000].map(pulledHeight);
    for (let index = 1; index < heights.length; index += 1) expect(heights[index]!).toBeGreaterThan(heights[index - 1]!);
    expect(heights[0]!).toBeLessThan(20);
    expect(pulledHeight(100_000)).toBeLessThan(HEAD_HEIGHT_PX * 5);
  });

  it('says "release" once pulled past the threshold', () => {
    expect(statusWhilePulling(THRESHOLD_PX - 1)).toBe('pulling');
    expect(statusWhilePulling(THRESHOLD_PX)).toBe('canRelease');
  });

  it('a pull of about 150 px reaches the threshold, as antd-mobile did', () => {
    expect(statusWhilePulling(pulledHeight(100))).toBe('pulling');
    expect(statusWhilePulling(pulledHeight(160))).toBe('canRelease');
  });
});
