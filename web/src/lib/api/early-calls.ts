/*
 * Reads the page's inline launch script sent for the page the app opens (web/build/launch-script.ts,
 * decision 047): the page's first answer is on its way while the app's code still is, and the API
 * client takes it instead of asking again.
 */

/** How long an early answer may wait to be taken: past this the screen asks again. */
export const EARLY_ANSWER_MAX_AGE_MS = 15_000;

/** A read the launch script sent, as it leaves it for the client (`globalThis.__custosLaunchCalls`). */
export interface LaunchCall {
  /** The credential and language it was sent with: a different ask never takes it. */
  authorization: string;
  lang: string;
  startedAtMs: number;
  response: Promise<Response>;
  /** Aborted after the client's time-out (spec §9's 60 s), counted from when it was sent. */
  signal: AbortSignal;
}

declare global {
  var __custosLaunchCalls: Record<string, LaunchCall> | undefined;
}

/** The URL the client fetches for an API path (relative, as the app is served at any base). */
export function apiUrl(path: string): string {
  return `api${path.replace(/^\/api/, '')}`;
}

/**
 * The early answer to a GET of `path` with these headers, once (a second ask fetches); null when
 * none was sent, it was sent with another credential or language, or it is too old to show.
 */
export function takeEarlyCall(
  path: string,
  headers: Readonly<Record<string, string | undefined>>,
): { response: Promise<Response>; signal: AbortSignal } | null {
  const calls = globalThis.__custosLaunchCalls;
  const call = calls?.[path];
  if (!calls || !call) return null;
  delete calls[path];
  if (call.authorization !== headers['Authorization'] || call.lang !== headers['lang']) return null;
  if (Date.now() - call.startedAtMs > EARLY_ANSWER_MAX_AGE_MS) return null;
  return { response: call.response, signal: call.signal };
}
