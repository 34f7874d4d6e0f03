/** How far the head follows a pull, and what it says (pure, so it is tested without a browser). */

export type PullStatus = 'idle' | 'pulling' | 'canRelease' | 'refreshing' | 'complete';

/** The head's height while refreshing, and how far it must be pulled to refresh on release. */
export const HEAD_HEIGHT_PX = 40;
export const THRESHOLD_PX = 60;
/** How long "refreshed" stays before the head closes. */
export const COMPLETE_DELAY_MS = 500;

const RUBBER_BAND_DIMENSION_PX = HEAD_HEIGHT_PX * 5;
const RUBBER_BAND_CONSTANT = 0.55;

/** The head's height for a finger `distancePx` below where it started: it follows slower and slower. */
export function pulledHeight(distancePx: number): number {
  if (distancePx <= 0) return 0;
  return (
    (distancePx * RUBBER_BAND_DIMENSION_PX * RUBBER_BAND_CONSTANT) /
    (RUBBER_BAND_DIMENSION_PX + RUBBER_BAND_CONSTANT * distancePx)
  );
}

/** While pulling: far enough to refresh on release or not yet. */
export function statusWhilePulling(heightPx: number): PullStatus {
  return heightPx >= THRESHOLD_PX ? 'canRelease' : 'pulling';
}
