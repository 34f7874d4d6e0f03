/** Where a dragged bubble may go and where it settles (pure, so it is tested without a browser). */

export type Point = { left: number; top: number };
export type Viewport = { width: number; height: number };

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), Math.max(min, max));
}

/** The bubble's top-left corner kept inside the viewport, `edgePx` from every side. */
export function keepInside(point: Point, sizePx: number, viewport: Viewport, edgePx: number): Point {
  return {
    left: clamp(point.left, edgePx, viewport.width - sizePx - edgePx),
    top: clamp(point.top, edgePx, viewport.height - sizePx - edgePx),
  };
}

/** Released, the bubble goes to the nearer side (left or right) at the height it was let go. */
export function settleAtSide(point: Point, sizePx: number, viewport: Viewport, edgePx: number): Point {
  const inside = keepInside(point, sizePx, viewport, edgePx);
  const centre = inside.left + sizePx / 2;
  return { left: centre < viewport.width / 2 ? edgePx : Math.max(edgePx, viewport.width - sizePx - edgePx), top: inside.top };
}

/** A press that moved less than this is a tap (opens), not a drag. */
export const DRAG_THRESHOLD_PX = 4;

export function movedBeyondTap(dx: number, dy: number): boolean {
  return Math.hypot(dx, dy) > DRAG_THRESHOLD_PX;
}
