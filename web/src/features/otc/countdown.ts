import { useEffect, useState } from 'react';

/**
 * A time left as the spec writes countdowns (§9: HH:mm:ss): "00:14:59". Whole seconds, rounded up
 * (a window with 0.4 s left still shows 00:00:01, so "00:00:00" means it has ended); never negative;
 * hours keep counting past 99 rather than wrap.
 */
export function formatCountdown(remainingMs: number): string {
  const totalSeconds = Number.isFinite(remainingMs) && remainingMs > 0 ? Math.ceil(remainingMs / 1000) : 0;
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  return [hours, minutes, seconds].map((part) => String(part).padStart(2, '0')).join(':');
}

/**
 * How long until `deadline` by the server's clock: `clockOffsetMs` is how far the server's clock runs
 * ahead of this device's (its `now` minus the device's when the answer arrived), so a phone whose
 * clock is wrong still counts the order's real window.
 */
export function remainingMs(deadline: string, deviceNowMs: number, clockOffsetMs = 0): number {
  const end = Date.parse(deadline);
  if (Number.isNaN(end)) return 0;
  return Math.max(0, end - (deviceNowMs + clockOffsetMs));
}

/** The time left until `deadline`, ticking once a second while there is any; null without a deadline. */
export function useCountdown(deadline: string | null, clockOffsetMs: number): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!deadline) return;
    setNow(Date.now());
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [deadline]);
  return deadline ? remainingMs(deadline, now, clockOffsetMs) : null;
}
