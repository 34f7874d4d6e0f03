/*
 * The launch's own reads come first (decision 048). From the app's first render until its first
 * frame is on screen, a read the launch script did not already send waits: the screen's secondary
 * reads (banners, news, badges, the platform configuration) and the live channel's code would
 * otherwise go out in the same moment as that frame, and on a phone their requests, their answers'
 * work on the main thread and the connections they take (six per host over HTTP/1.1) hold back the
 * frame the member is waiting for. They go out a frame later instead.
 */

/** The longest a read waits for the first frame (a page opened in a background tab draws none). */
export const FIRST_FRAME_HOLD_LIMIT_MS = 1_000;

interface Hold {
  promise: Promise<void>;
  release: () => void;
}

let hold: Hold | null = null;

/** Called as the app's first render starts: reads wait for its frame from now on. */
export function holdReadsForFirstFrame(limitMs = FIRST_FRAME_HOLD_LIMIT_MS): void {
  if (hold) return;
  let resolve!: () => void;
  const promise = new Promise<void>((settle) => (resolve = settle));
  const timer = setTimeout(() => current.release(), limitMs);
  const current: Hold = {
    promise,
    release: () => {
      clearTimeout(timer);
      if (hold === current) hold = null;
      resolve();
    },
  };
  hold = current;
}

/**
 * Called once the first render is committed: the hold ends when the browser reports the page's
 * first contentful paint, the moment that frame reached the screen (a frame's tasks on the main
 * thread end well before it is shown). Where paints are not reported, two animation frames on.
 */
export function firstRenderCommitted(): void {
  const current = hold;
  if (!current) return;
  const types = typeof PerformanceObserver === 'undefined' ? [] : PerformanceObserver.supportedEntryTypes;
  if (!types.includes('paint')) {
    requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(current.release, 0)));
    return;
  }
  const observer = new PerformanceObserver((entries) => {
    if (!entries.getEntriesByName('first-contentful-paint').length) return;
    observer.disconnect();
    current.release();
  });
  observer.observe({ type: 'paint', buffered: true });
}

/** What a read waits for before it is sent: null when nothing holds it (the usual case). */
export function firstFrameHold(): Promise<void> | null {
  return hold?.promise ?? null;
}
