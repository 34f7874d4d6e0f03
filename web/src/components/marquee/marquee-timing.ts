/** How fast a notice scrolls, as antd-mobile's notice bar did: 50 px a second (after a pause, styles.css). */
export const MARQUEE_SPEED_PX_PER_S = 50;

/** One pass of a text `widthPx` wide scrolling out to the left. */
export function marqueeDurationS(widthPx: number): number {
  return Math.max(1, widthPx / MARQUEE_SPEED_PX_PER_S);
}
