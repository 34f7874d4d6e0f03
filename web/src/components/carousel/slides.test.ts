import { describe, expect, it } from 'vitest';
import { autoplayAllowed, nextSlide, slideAt } from './slides';

describe('scroll-snap carousel', () => {
  it('knows the slide shown from how far the track is scrolled', () => {
    expect(slideAt(0, 350, 3)).toBe(0);
    expect(slideAt(340, 350, 3)).toBe(1);
    expect(slideAt(700, 350, 3)).toBe(2);
    expect(slideAt(5000, 350, 3)).toBe(2);
    // Right-to-left scrolling reports negative offsets.
    expect(slideAt(-350, 350, 3)).toBe(1);
    expect(slideAt(100, 0, 3)).toBe(0);
  });

  it('goes round: after the last slide, the first', () => {
    expect(nextSlide(0, 3)).toBe(1);
    expect(nextSlide(2, 3)).toBe(0);
    expect(nextSlide(0, 0)).toBe(0);
  });

  it('plays only with several slides, motion allowed, the page visible and nobody holding it', () => {
    const base = { count: 3, reducedMotion: false, hidden: false, held: false };
    expect(autoplayAllowed(base)).toBe(true);
    expect(autoplayAllowed({ ...base, count: 1 })).toBe(false);
    expect(autoplayAllowed({ ...base, reducedMotion: true })).toBe(false);
    expect(autoplayAllowed({ ...base, hidden: true })).toBe(false);
    expect(autoplayAllowed({ ...base, held: true })).toBe(false);
  });
});
