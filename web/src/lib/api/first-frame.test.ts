import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FIRST_FRAME_HOLD_LIMIT_MS, firstFrameHold, firstRenderCommitted, holdReadsForFirstFrame } from './first-frame';

/** A stand-in for the browser's paint timing: `paint()` reports the first contentful paint. */
function paintTimingStandIn() {
  const observers: { callback: PerformanceObserverCallback; connected: boolean }[] = [];
  class StandIn {
    static supportedEntryTypes = ['paint', 'largest-contentful-paint'];
    private readonly entry: { callback: PerformanceObserverCallback; connected: boolean };
    constructor(callback: PerformanceObserverCallback) {
      this.entry = { callback, connected: false };
      observers.push(this.entry);
    }
    observe() {
      this.entry.connected = true;
    }
    disconnect() {
      this.entry.connected = false;
    }
  }
  vi.stubGlobal('PerformanceObserver', StandIn);
  return {
    paint(name: string) {
      for (const observer of observers.filter((candidate) => candidate.connected)) {
        const list = { getEntriesByName: (asked: string) => (asked === name ? [{ name }] : []) };
        observer.callback(list as unknown as PerformanceObserverEntryList, observer as unknown as PerformanceObserver);
      }
    },
    connected: () => observers.filter((candidate) => candidate.connected).length,
  };
}

async function settledNow(promise: Promise<void> | null): Promise<boolean> {
  if (!promise) return true;
  let settled = false;
  void promise.then(() => (settled = true));
  await Promise.resolve();
  await Promise.resolve();
  return settled;
}

describe('reads held for the first frame (decision 048)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(async () => {
    // Ends any hold a test left, so the next starts with none.
    await vi.runAllTimersAsync();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('holds nothing before the first render starts', () => {
    expect(firstFrameHold()).toBeNull();
  });

  it('holds reads from the first render until the first contentful paint is reported, not before', async () => {
    const timing = paintTimingStandIn();
    holdReadsForFirstFrame();
    const hold = firstFrameHold();
    expect(hold).not.toBeNull();
    firstRenderCommitted();
    expect(timing.connected()).toBe(1);
    // Another kind of paint is not the one it waits for.
    timing.paint('first-paint');
    expect(await settledNow(hold)).toBe(false);
    timing.paint('first-contentful-paint');
    expect(await settledNow(hold)).toBe(true);
    expect(firstFrameHold()).toBeNull();
    expect(timing.connected()).toBe(0);
  });

  it('ends the hold after its limit when no frame is drawn (a page opened in a background tab)', async () => {
    paintTimingStandIn();
    holdReadsForFirstFrame();
    const hold = firstFrameHold();
    firstRenderCommitted();
    await vi.advanceTimersByTimeAsync(FIRST_FRAME_HOLD_LIMIT_MS - 1);
    expect(await settledNow(hold)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settledNow(hold)).toBe(true);
    expect(firstFrameHold()).toBeNull();
  });

  it('falls back to two animation frames where paints are not reported', async () => {
    vi.stubGlobal('PerformanceObserver', { supportedEntryTypes: [] });
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => frames.push(callback));
    holdReadsForFirstFrame();
    const hold = firstFrameHold();
    firstRenderCommitted();
    frames.shift()?.(0);
    await vi.advanceTimersByTimeAsync(0);
    expect(await settledNow(hold)).toBe(false);
    frames.shift()?.(16);
    await vi.advanceTimersByTimeAsync(0);
    expect(await settledNow(hold)).toBe(true);
  });
});
