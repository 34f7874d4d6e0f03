import { describe, expect, it } from 'vitest';
import { keepInside, movedBeyondTap, settleAtSide } from './bubble-position';

const phone = { width: 375, height: 667 };

describe('floating bubble position', () => {
  it('keeps the bubble inside the screen, 16 px from every side', () => {
    expect(keepInside({ left: -40, top: -10 }, 48, phone, 16)).toEqual({ left: 16, top: 16 });
    expect(keepInside({ left: 400, top: 900 }, 48, phone, 16)).toEqual({ left: 375 - 48 - 16, top: 667 - 48 - 16 });
    expect(keepInside({ left: 100, top: 200 }, 48, phone, 16)).toEqual({ left: 100, top: 200 });
  });

  it('settles at the nearer side, at the height it was let go', () => {
    expect(settleAtSide({ left: 100, top: 300 }, 48, phone, 16)).toEqual({ left: 16, top: 300 });
    expect(settleAtSide({ left: 200, top: 300 }, 48, phone, 16)).toEqual({ left: 311, top: 300 });
    expect(settleAtSide({ left: 200, top: 2000 }, 48, phone, 16)).toEqual({ left: 311, top: 603 });
  });

  it('a press that barely moved is a tap, not a drag', () => {
    expect(movedBeyondTap(2, 3)).toBe(false);
    expect(movedBeyondTap(0, 5)).toBe(true);
  });

  it('a screen narrower than the bubble keeps it at the edge', () => {
    expect(settleAtSide({ left: 10, top: 10 }, 48, { width: 60, height: 60 }, 16)).toEqual({ left: 16, top: 16 });
  });
});
