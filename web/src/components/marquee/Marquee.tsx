import { useLayoutEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { marqueeDurationS } from './marquee-timing';

type Run = { distancePx: number; durationS: number } | null;

/**
 * A one-line notice bar whose text, when longer than the bar, scrolls by (a CSS animation, no
 * script per frame, decision 042), after a pause. It stops under the pointer, and does not move at all
 * for a member who prefers reduced motion: the text wraps instead (styles.css).
 */
export function Marquee({ icon, text }: { icon?: ReactNode; text: string }) {
  const box = useRef<HTMLDivElement>(null);
  const inner = useRef<HTMLSpanElement>(null);
  const [run, setRun] = useState<Run>(null);

  useLayoutEffect(() => {
    const container = box.current;
    const content = inner.current;
    if (!container || !content) return;
    const measure = () => {
      const overflowPx = content.scrollWidth - container.clientWidth;
      setRun(overflowPx > 0 ? { distancePx: content.scrollWidth, durationS: marqueeDurationS(content.scrollWidth) } : null);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(container);
    return () => observer.disconnect();
  }, [text]);

  return (
    <div className="marquee">
      {icon && (
        <span className="marquee-icon" aria-hidden="true">
          {icon}
        </span>
      )}
      <div ref={box} className="marquee-content">
        <span
          ref={inner}
          className={run ? 'marquee-text marquee-text-running' : 'marquee-text'}
          style={
            run
              ? ({ '--marquee-distance': `-${run.distancePx}px`, '--marquee-duration': `${run.durationS}s` } as CSSProperties)
              : undefined
          }
        >
          {text}
        </span>
      </div>
    </div>
  );
}
