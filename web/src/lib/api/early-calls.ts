import { REQUEST_TIMEOUT_MS, langHeaderFor, type Locale } from '@custos/contract';
import { credential } from '../auth/credential';

/*
 * Reads the early file starts for the page the app opens (decision 047): the page's first answer
 * is on its way while the app's code still is, and the API client takes it instead of asking
 * again. Part of the small `early` file (web/build/chunks.ts): it imports nothing of `start`.
 */

/** How long an early answer may wait to be taken: past this the screen asks again. */
export const EARLY_ANSWER_MAX_AGE_MS = 15_000;

interface EarlyCall {
  /** The credential and language it was sent with: a different ask never takes it. */
  authorization: string;
  lang: string;
  startedAtMs: number;
  response: Promise<Response>;
  /** Aborted after the client's time-out (spec §9's 60 s), counted from when it was sent. */
  signal: AbortSignal;
}

const started = new Map<string, EarlyCall>();

/** The URL the client fetches for an API path (relative, as the app is served at any base). */
export function apiUrl(path: string): string {
  return `api${path.replace(/^\/api/, '')}`;
}

/**
 * Sends the GET of `path` now, as the client would send it for a member in `locale`; only for a
 * member with a credential (every early read is a member's).
 */
export function startEarlyCall(path: string, locale: Locale): void {
  const authorization = credential.get();
  if (!authorization || started.has(path)) return;
  const lang = langHeaderFor(locale);
  const controller = new AbortController();
  setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS);
  const response = fetch(apiUrl(path), {
    method: 'GET',
    headers: { lang, accept: 'application/json', Authorization: authorization },
    signal: controller.signal,
  });
  // Taken or not, a failure is the taker's to report (the client shows it), never an unhandled one.
  response.catch(() => undefined);
  started.set(path, { authorization, lang, startedAtMs: Date.now(), response, signal: controller.signal });
}

/**
 * The early answer to a GET of `path` with these headers, once (a second ask fetches); null when
 * none was sent, it was sent with another credential or language, or it is too old to show.
 */
export function takeEarlyCall(
  path: string,
  headers: Readonly<Record<string, string | undefined>>,
): { response: Promise<Response>; signal: AbortSignal } | null {
  const call = started.get(path);
  if (!call) return null;
  started.delete(path);
  if (call.authorization !== headers['Authorization'] || call.lang !== headers['lang']) return null;
  if (Date.now() - call.startedAtMs > EARLY_ANSWER_MAX_AGE_MS) return null;
  return { response: call.response, signal: call.signal };
}
