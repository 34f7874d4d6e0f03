import { useEffect, useRef, useState, type ReactNode } from 'react';
import { autoplayAllowed, nextSlide, slideAt } from './slides';

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

function usePrefersReducedMotion(): boolean {
  const [reduced, setReduced] = useState(() => window.matchMedia(REDUCED_MOTION).matches);
  useEffect(() => {
    const query = window.matchMedia(REDUCED_MOTION);
    const onChange = () => setReduced(query.matches);
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, []);
  return reduced;
}

function usePageHidden(): boolean {
  const [hidden, setHidden] = useState(() => document.visibilityState === 'hidden');
  useEffect(() => {
    const onChange = () => setHidden(document.visibilityState === 'hidden');
    document.addEventListener('visibilitychange', onChange);
    return () => document.removeEventListener('visibilitychange', onChange);
  }, []);
  return hidden;
}

/**
 * A row of full-width slides the member swipes through (CSS scroll snap: the browser's own
 * scrolling, no gesture or animation library, decision 042), with page dots. With more than one
 * slide it moves on by itself every `intervalMs`, except when the member prefers reduced motion,
 * the page is hidden, or a finger, the pointer or the keyboard focus is on it.
 */
export function SnapCarousel({ slides, intervalMs }: { slides: ReactNode[]; intervalMs: number }) {
  const track = useRef<HTMLDivElement>(null);
  const [current, setCurrent] = useState(0);
  const [held, setHeld] = useState(false);
  const reducedMotion = usePrefersReducedMotion();
  const hidden = usePageHidden();
  const count = slides.length;
  const playing = autoplayAllowed({ count, reducedMotion, hidden, held });

  useEffect(() => {
    if (!playing) return;
    const timer = setInterval(() => {
      const element = track.current;
      if (!element) return;
      const width = element.clientWidth;
      const next = nextSlide(slideAt(element.scrollLeft, width, count), count);
      element.scrollTo({ left: next * width, behavior: next === 0 ? 'auto' : 'smooth' });
    }, intervalMs);
    return () => clearInterval(timer);
  }, [playing, count, intervalMs]);

  const hold = () => setHeld(true);
  const release = () => setHeld(false);
  return (
    <div className="snap-carousel">
      <div
        ref={track}
        className="snap-carousel-track"
        onScroll={(event) => setCurrent(slideAt(event.currentTarget.scrollLeft, event.currentTarget.clientWidth, count))}
        onPointerEnter={hold}
        onPointerLeave={release}
        onTouchStart={hold}
        onTouchEnd={release}
        onFocus={hold}
        onBlur={release}
      >
        {slides.map((slide, index) => (
          <div key={index} className="snap-carousel-slide">
            {slide}
          </div>
        ))}
      </div>
      {count > 1 && (
        <div className="snap-carousel-dots" aria-hidden="true">
          {slides.map((_, index) => (
            <span
              key={index}
              className={index === current ? 'snap-carousel-dot snap-carousel-dot-active' : 'snap-carousel-dot'}
            />
          ))}
        </div>
      )}
    </div>
  );
}
