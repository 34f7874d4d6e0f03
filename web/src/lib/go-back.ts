import type { NavigateFunction } from './router/router';

/** Back to the previous screen after saving, or to `fallback` when this screen was opened directly. */
export function goBackOr(navigate: NavigateFunction, fallback: string): void {
  const state = window.history.state as { idx?: number } | null;
  if (state?.idx && state.idx > 0) void navigate(-1);
  else void navigate(fallback, { replace: true });
}
