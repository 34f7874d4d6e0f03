import type { z } from 'zod';
import { BusinessCode, REQUEST_TIMEOUT_MS, anyEnvelopeSchema, langHeaderFor } from '@custos/contract';

const TOKEN_KEY = 'custos.operatorToken';

export const operatorToken = {
  get: (): string | null => sessionStorage.getItem(TOKEN_KEY),
  set: (token: string): void => sessionStorage.setItem(TOKEN_KEY, token),
  clear: (): void => sessionStorage.removeItem(TOKEN_KEY),
};

export class ConsoleApiError extends Error {
  override name = 'ConsoleApiError';
  constructor(
    message: string,
    readonly code: number | null,
  ) {
    super(message);
  }
}

type Listener = () => void;
const unauthorizedListeners = new Set<Listener>();

/** The console shell listens here to return to log-in when a session ends. */
export function onUnauthorized(listener: Listener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

/** Console calls: bearer token, English messages, the envelope unwrapped; failures throw with the server's message. */
export async function consoleRequest<S extends z.ZodType>(call: {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  body?: unknown;
  data: S;
}): Promise<z.infer<S>> {
  const headers: Record<string, string> = { lang: langHeaderFor('en'), accept: 'application/json' };
  const token = operatorToken.get();
  if (token) headers.authorization = `Bearer ${token}`;
  if (call.body !== undefined) headers['content-type'] = 'application/json';
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS);
  let response: Response;
  let payload: unknown;
  try {
    response = await fetch(`..${call.path}`, {
      method: call.method,
      headers,
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
      signal: controller.signal,
    });
    payload = await response.json().catch(() => undefined);
  } catch (error) {
    throw new ConsoleApiError(
      controller.signal.aborted ? 'The server did not answer in time' : `Network error: ${String(error)}`,
      null,
    );
  } finally {
    clearTimeout(timer);
  }
  const envelope = anyEnvelopeSchema.safeParse(payload);
  if (!envelope.success) throw new ConsoleApiError(`Request failed (HTTP ${response.status})`, null);
  if (envelope.data.code === BusinessCode.UNAUTHORIZED) {
    operatorToken.clear();
    for (const listener of unauthorizedListeners) listener();
  }
  if (envelope.data.code !== BusinessCode.OK) throw new ConsoleApiError(envelope.data.message, envelope.data.code);
  return call.data.parse(envelope.data.data);
}
