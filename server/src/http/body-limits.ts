import type { IncomingMessage } from 'node:http';
import { UPLOAD_BASE64_MAX_LENGTH } from '@custos/contract';

/** Room in a body for the fields beside its inline image (a text, a kind): far more than they take. */
const BESIDE_IMAGE_BYTES = 64 * 1024;

/**
 * The body limit of a call that carries one inline image: the longest base64 its schema takes and
 * the rest, so a body the schema documents is never cut off by the limit (issue 31).
 */
export const IMAGE_BODY_LIMIT_BYTES = UPLOAD_BASE64_MAX_LENGTH + BESIDE_IMAGE_BYTES;

/** How much of a refused body is read and dropped before the answer, and for how long at most. */
const DRAIN_MAX_BYTES = 64 * 1024 * 1024;
const DRAIN_TIMEOUT_MS = 10_000;

/**
 * Reads and drops the rest of a body refused as too large, so the client has finished sending when
 * the answer comes: closing on a client that is still writing cuts it off (EPIPE) before it reads
 * the 413. Past `DRAIN_MAX_BYTES` or `DRAIN_TIMEOUT_MS` it answers anyway (and the connection closes).
 */
export function drainRefusedBody(raw: IncomingMessage): Promise<void> {
  if (raw.complete || raw.readableEnded || raw.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let bytes = 0;
    const done = () => {
      clearTimeout(timer);
      raw.off('data', onData);
      raw.off('end', done);
      raw.off('error', done);
      raw.off('close', done);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > DRAIN_MAX_BYTES) done();
    };
    const timer = setTimeout(done, DRAIN_TIMEOUT_MS);
    raw.on('data', onData);
    raw.on('end', done);
    raw.on('error', done);
    raw.on('close', done);
    raw.resume();
  });
}
