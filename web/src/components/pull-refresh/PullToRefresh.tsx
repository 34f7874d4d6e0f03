import { useEffect, useRef, useState, type ReactNode } from 'react';
import { COMPLETE_DELAY_MS, HEAD_HEIGHT_PX, pulledHeight, statusWhilePulling, type PullStatus } from './pull-state';

/** The nearest ancestor that scrolls vertically (the tab layout's content), or the document. */
function scrollParentOf(element: HTMLElement): HTMLElement {
  for (let node = element.parentElement; node; node = node.parentElement) {
    const { overflowY } = getComputedStyle(node);
    if (overflowY === 'auto' || overflowY === 'scroll') return node;
  }
  return document.scrollingElement instanceof HTMLElement ? document.scrollingElement : document.documentElement;
}

export type PullTexts = { pulling: string; canRelease: string; refreshing: string; complete: string };

/**
 * Pull down at the top of the page to refresh: the head follows the finger, says whether letting go
 * refreshes, and stays open while `onRefresh` runs. Touch events only, no gesture or animation
 * library (decision 042); a page that is not at its top scrolls as usual.
 */
export function PullToRefresh({
  onRefresh,
  texts,
  children,
}: {
  onRefresh: () => Promise<unknown>;
  texts: PullTexts;
  children: ReactNode;
}) {
  const root = useRef<HTMLDivElement>(null);
  const [status, setStatus] = useState<PullStatus>('idle');
  const [heightPx, setHeightPx] = useState(0);
  const statusRef = useRef<PullStatus>('idle');
  const onRefreshRef = useRef(onRefresh);
  useEffect(() => {
    onRefreshRef.current = onRefresh;
  }, [onRefresh]);

  useEffect(() => {
    const element = root.current;
    if (!element) return;
    let startY: number | null = null;
    let height = 0;
    let active = true;
    const update = (next: PullStatus, nextHeight: number) => {
      statusRef.current = next;
      height = nextHeight;
      setStatus(next);
      setHeightPx(nextHeight);
    };
    const onTouchStart = (event: TouchEvent) => {
      const busy = statusRef.current === 'refreshing' || statusRef.current === 'complete';
      startY = !busy && event.touches.length === 1 && scrollParentOf(element).scrollTop <= 0 ? event.touches[0]!.clientY : null;
    };
    const onTouchMove = (event: TouchEvent) => {
      if (startY === null) return;
      const distance = event.touches[0]!.clientY - startY;
      if (distance <= 0 && height === 0) {
        // Scrolling up: the page scrolls, this gesture is not a pull.
        startY = null;
        return;
      }
      // Pulling: the page must not scroll or bounce under the finger.
      if (event.cancelable) event.preventDefault();
      const next = pulledHeight(distance);
      update(next > 0 ? statusWhilePulling(next) : 'idle', next);
    };
    const onTouchEnd = () => {
      if (startY === null) return;
      startY = null;
      if (statusRef.current !== 'canRelease') {
        update('idle', 0);
        return;
      }
      update('refreshing', HEAD_HEIGHT_PX);
      void onRefreshRef
        .current()
        .catch(() => undefined)
        .then(async () => {
          if (!active) return;
          update('complete', HEAD_HEIGHT_PX);
          await new Promise((resolve) => setTimeout(resolve, COMPLETE_DELAY_MS));
          if (active) update('idle', 0);
        });
    };
    element.addEventListener('touchstart', onTouchStart, { passive: true });
    // Not passive: a pull stops the page's own scrolling.
    element.addEventListener('touchmove', onTouchMove, { passive: false });
    element.addEventListener('touchend', onTouchEnd);
    element.addEventListener('touchcancel', onTouchEnd);
    return () => {
      active = false;
      element.removeEventListener('touchstart', onTouchStart);
      element.removeEventListener('touchmove', onTouchMove);
      element.removeEventListener('touchend', onTouchEnd);
      element.removeEventListener('touchcancel', onTouchEnd);
    };
  }, []);

  const text =
    status === 'pulling'
      ? texts.pulling
      : status === 'canRelease'
        ? texts.canRelease
        : status === 'refreshing'
          ? texts.refreshing
          : status === 'complete'
            ? texts.complete
            : '';
  const following = status === 'pulling' || status === 'canRelease';
  return (
    <div ref={root} className="pull-refresh" data-status={status}>
      <div
        className={following ? 'pull-refresh-head pull-refresh-head-following' : 'pull-refresh-head'}
        style={{ height: heightPx }}
        aria-hidden={status === 'idle'}
      >
        <div className="pull-refresh-head-content" role="status">
          {text}
        </div>
      </div>
      {children}
    </div>
  );
}
