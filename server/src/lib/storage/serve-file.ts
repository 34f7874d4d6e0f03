import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DownloadSlots } from './download-slots.js';
import type { FileStore } from './file-store.js';

/**
 * One byte range of `size` from a `Range` header (RFC 9110 §14.1.2): `bytes=a-b`, `bytes=a-` or the
 * suffix `bytes=-n`. null: no usable single range (the whole file is sent); 'unsatisfiable': 416.
 */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | null | 'unsatisfiable' {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

/**
 * Sends a stored file as a stream (never read whole into memory), with its SHA-256 as the ETag,
 * 304 on If-None-Match, one range (206, or 416) unless If-Range names another version, and a
 * download slot of the caller's address held until the answer is finished or the caller hangs up.
 * The caller sets the type and any other headers first.
 */
export async function sendStoredFile(
  request: FastifyRequest,
  reply: FastifyReply,
  store: FileStore,
  file: { sha256: string; sizeBytes: number },
  slots: DownloadSlots,
): Promise<FastifyReply> {
  const etag = `"${file.sha256}"`;
  void reply.header('etag', etag).header('accept-ranges', 'bytes');
  if (request.headers['if-none-match'] === etag) return reply.code(304).send();
  const ifRange = request.headers['if-range'];
  const range = ifRange === undefined || ifRange === etag ? parseRange(request.headers.range, file.sizeBytes) : null;
  if (range === 'unsatisfiable') return reply.code(416).header('content-range', `bytes */${file.sizeBytes}`).send();
  // A file the database names but the store lacks is a broken deployment (a volume not mounted), not a 404.
  if ((await store.sizeOf(file.sha256)) !== file.sizeBytes) throw new Error(`stored file ${file.sha256} is missing or truncated`);
  const release = slots.acquire(request.ip);
  reply.raw.once('close', release);
  if (request.method === 'HEAD') {
    release();
    return reply
      .code(range ? 206 : 200)
      .header('content-length', range ? range.end - range.start + 1 : file.sizeBytes)
      .send();
  }
  if (range === null) return reply.header('content-length', file.sizeBytes).send(store.read(file.sha256));
  return reply
    .code(206)
    .header('content-range', `bytes ${range.start}-${range.end}/${file.sizeBytes}`)
    .header('content-length', range.end - range.start + 1)
    .send(store.read(file.sha256, range));
}
