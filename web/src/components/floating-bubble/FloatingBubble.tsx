import { useEffect, useRef, useState, type PointerEvent, type ReactNode } from 'react';
import { keepInside, movedBeyondTap, settleAtSide, type Point } from './bubble-position';

const SIZE_PX = 48;
const EDGE_PX = 16;

type Drag = { pointerId: number; startX: number; startY: number; origin: Point; moved: boolean };

const viewport = () => ({ width: window.innerWidth, height: window.innerHeight });

/**
 * A round button fixed over the page (bottom right at first) that the member can drag anywhere and
 * that settles at the nearer side when let go; a tap (or Enter/Space) runs `onClick`. Pointer events
 * only: no gesture or animation library (decision 042).
 */
export function FloatingBubble({
  label,
  className,
  onClick,
  children,
}: {
  label: string;
  className?: string;
  onClick: () => void;
  children: ReactNode;
}) {
  const button = useRef<HTMLButtonElement>(null);
  const drag = useRef<Drag | null>(null);
  const suppressClick = useRef(false);
  // null: where the style sheet puts it; a point once the member has moved it.
  const [position, setPosition] = useState<Point | null>(null);
  const [dragging, setDragging] = useState(false);

  // A smaller window (rotation, split screen) keeps a moved bubble on screen.
  useEffect(() => {
    if (!position) return;
    const onResize = () => setPosition((current) => current && settleAtSide(current, SIZE_PX, viewport(), EDGE_PX));
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, [position]);

  const onPointerDown = (event: PointerEvent<HTMLButtonElement>) => {
    if (event.button !== 0 || !button.current) return;
    const rect = button.current.getBoundingClientRect();
    drag.current = {
      pointerId: event.pointerId,
      startX: event.clientX,
      startY: event.clientY,
      origin: { left: rect.left, top: rect.top },
      moved: false,
    };
    suppressClick.current = false;
    // The moves go to the bubble even when a quick drag outruns it.
    event.currentTarget.setPointerCapture(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent<HTMLButtonElement>) => {
    const current = drag.current;
    if (!current || current.pointerId !== event.pointerId) return;
    const dx = event.clientX - current.startX;
    const dy = event.clientY - current.startY;
    if (!current.moved) {
      if (!movedBeyondTap(dx, dy)) return;
      current.moved = true;
      setDragging(true);
    }
    setPosition(keepInside({ left: current.origin.left + dx, top: current.origin.top + dy }, SIZE_PX, viewport(), EDGE_PX));
  };
  const onPointerEnd = (event: PointerEvent<HTMLButtonElement>) => {
    const current = drag.current;
    if (!current || current.pointerId !== event.pointerId) return;
    drag.current = null;
    if (!current.moved) return;
    suppressClick.current = true;
    setDragging(false);
    setPosition((point) => point && settleAtSide(point, SIZE_PX, viewport(), EDGE_PX));
  };

  const classes = ['floating-bubble', dragging ? 'floating-bubble-dragging' : '', className ?? ''].filter(Boolean).join(' ');
  return (
    <button
      ref={button}
      type="button"
      className={classes}
      aria-label={label}
      style={position ? { left: position.left, top: position.top, right: 'auto', bottom: 'auto' } : undefined}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerEnd}
      onPointerCancel={onPointerEnd}
      onClick={() => {
        // The click that ends a drag does not open anything.
        if (suppressClick.current) {
          suppressClick.current = false;
          return;
        }
        onClick();
      }}
    >
      {children}
    </button>
  );
}
