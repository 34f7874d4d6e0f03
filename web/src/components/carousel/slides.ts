/** Which slide a scroll-snap track shows and which comes next (pure, so it is tested without a browser). */

/** The slide the track shows at `scrollLeftPx` (each slide as wide as the track). */
export function slideAt(scrollLeftPx: number, slideWidthPx: number, count: number): number {
  if (count <= 0 || slideWidthPx <= 0) return 0;
  return Math.min(count - 1, Math.max(0, Math.round(Math.abs(scrollLeftPx) / slideWidthPx)));
}

/** The next slide for autoplay: after the last, the first again. */
export function nextSlide(current: number, count: number): number {
  return count <= 0 ? 0 : (current + 1) % count;
}

/** Autoplay runs only with more than one slide, motion allowed, the page visible and nobody holding it. */
export function autoplayAllowed(state: { count: number; reducedMotion: boolean; hidden: boolean; held: boolean }): boolean {
  return state.count > 1 && !state.reducedMotion && !state.hidden && !state.held;
}
