import { expect } from 'vitest';
import type { TestApp } from './test-app.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A console call with an operator's token, answered in English. */
export function operatorCall(t: TestApp, method: Method, url: string, token: string, payload?: object) {
  return t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}`, lang: 'EN' },
    ...(payload ? { payload } : {}),
  });
}

/** The envelope's data, after checking the call succeeded (its message shows when it did not). */
export async function dataOf<T>(response: Promise<{ json: <J>() => J }> | { json: <J>() => J }): Promise<T> {
  const body = (await response).json<{ code: number; message: string; data: T }>();
  expect(body, body.message).toMatchObject({ code: 200 });
  return body.data;
}
