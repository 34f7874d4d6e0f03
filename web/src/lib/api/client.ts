import type { z } from 'zod';
import {
  BusinessCode,
  ERROR_REDIRECT_DELAY_MS,
  REDIRECT_ROUTE_BY_CODE,
  REQUEST_TIMEOUT_MS,
  anyEnvelopeSchema,
  langHeaderFor,
} from '@custos/contract';
import { credential } from '../auth/credential';
import { currentLocale, t } from '../i18n/i18n';
import { navigateTo, relaunch } from '../navigation';
import { showToast, toastShown } from '../toast';
import { apiUrl, takeEarlyCall } from './early-calls';
import { firstFrameHold } from './first-frame';
import { ApiError } from './errors';

export const LOGIN_ROUTE = '/pages/login/login';

export { ApiError };

export interface ApiCall<S extends z.ZodType> {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** Schema of the envelope's `data`, from the contract. */
  data: S;
}

function withQuery(path: string, query: ApiCall<z.ZodType>['query']): string {
  if (!query) return path;
  const parameters = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) parameters.set(key, String(value));
  const text = parameters.toString();
  return text ? `${path}?${text}` : path;
}

function isRedirectCode(code: number): code is keyof typeof REDIRECT_ROUTE_BY_CODE {
  return Object.hasOwn(REDIRECT_ROUTE_BY_CODE, code);
}

/**
 * The one API client (spec §7–8): sends `Authorization` and `lang`, gives up after 60 s, and handles
 * every envelope the same way: 200 → data; 401 → forget the credential and relaunch to log-in with
 * the server's message; 300/4900/4901 → message, then their screen after 1.5 s; any other code →
 * the server's message; no envelope → the transport error.
 */
export async function apiRequest<S extends z.ZodType>(call: ApiCall<S>): Promise<z.infer<S>> {
  const headers: Record<string, string> = { lang: langHeaderFor(currentLocale()), accept: 'application/json' };
  const token = credential.get();
  if (token) headers.Authorization = token;
  let body: string | undefined;
  if (call.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(call.body);
  }

  // The page the app opened may have had this read sent by the early file (decision 047).
  const early = call.method === 'GET' && call.query === undefined ? takeEarlyCall(call.path, headers) : null;
  // Any other read of the launch goes out after the first frame is on screen (decision 048).
  const firstFrame = early ? null : firstFrameHold();
  if (firstFrame) await firstFrame;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS);
  let response: Response;
  let payload: unknown;
  try {
    response = await (early?.response ??
      fetch(withQuery(apiUrl(call.path), call.query), {
        method: call.method,
        headers,
        body,
        signal: controller.signal,
      }));
    payload = await response.json().catch(() => undefined);
  } catch (error) {
    if (controller.signal.aborted || early?.signal.aborted) {
      const message = t('common.requestTimeout');
      showToast(message);
      throw new ApiError('timeout', message);
    }
    const message = t('common.networkError', { message: error instanceof Error ? error.message : String(error) });
    showToast(message);
    throw new ApiError('unreachable', message);
  } finally {
    clearTimeout(timer);
  }

  const envelope = anyEnvelopeSchema.safeParse(payload);
  if (!envelope.success) {
    const message = t('common.httpError', { status: response.status });
    showToast(message);
    throw new ApiError('transport', message);
  }
  const { code, message } = envelope.data;
  if (code === BusinessCode.OK) {
    const data = call.data.safeParse(envelope.data.data);
    if (!data.success) {
      const text = t('common.httpError', { status: response.status });
      showToast(text);
      throw new ApiError('transport', text);
    }
    return data.data;
  }
  if (code === BusinessCode.UNAUTHORIZED) {
    credential.clear();
    relaunch(LOGIN_ROUTE);
    showToast(message);
  } else if (isRedirectCode(code)) {
    const route = REDIRECT_ROUTE_BY_CODE[code];
    // The 1.5 s count from when the message shows (the toast may first be fetched, decision 039).
    void toastShown(message).then(() => setTimeout(() => navigateTo(route), ERROR_REDIRECT_DELAY_MS));
  } else {
    showToast(message);
  }
  throw new ApiError('business', message, code);
}
