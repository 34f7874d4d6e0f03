import {
  BusinessCode,
  REQUEST_TIMEOUT_MS,
  adminReleasesResponse,
  anyEnvelopeSchema,
  emptyResponse,
  langHeaderFor,
  releasePackageResponse,
  type CreateReleaseRequest,
  type ReleaseKind,
  type ReleasePackage,
} from '@custos/contract';
import { z } from 'zod';
import { ConsoleApiError, consoleRequest, operatorToken } from '../../../lib/api';

export function listReleases() {
  return consoleRequest({ method: 'GET', path: '/api/admin/releases', data: adminReleasesResponse });
}

export function createRelease(body: CreateReleaseRequest) {
  return consoleRequest({ method: 'POST', path: '/api/admin/releases', body, data: z.object({ id: z.string() }) });
}

export function publishRelease(id: string, rolloutPercent: number) {
  return consoleRequest({
    method: 'POST',
    path: `/api/admin/releases/${encodeURIComponent(id)}/publish`,
    body: { rolloutPercent },
    data: emptyResponse,
  });
}

export function rollbackRelease(id: string) {
  return consoleRequest({ method: 'POST', path: `/api/admin/releases/${encodeURIComponent(id)}/rollback`, data: emptyResponse });
}

async function sha256Hex(content: ArrayBuffer): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', content);
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * Uploads a package as its own bytes (application/octet-stream) with the SHA-256 computed here:
 * the server checks its own against it, so a file damaged on the way is refused.
 */
export async function uploadPackage(kind: ReleaseKind, file: File): Promise<ReleasePackage> {
  const content = await file.arrayBuffer();
  const sha256 = await sha256Hex(content);
  const controller = new AbortController();
  // A large APK over a slow line: the upload gets ten request time-outs.
  const timer = setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS * 10);
  let response: Response;
  let payload: unknown;
  try {
    response = await fetch(`../api/admin/releases/packages?kind=${kind}&sha256=${sha256}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${operatorToken.get() ?? ''}`,
        lang: langHeaderFor('en'),
        accept: 'application/json',
        'content-type': 'application/octet-stream',
      },
      body: content,
      signal: controller.signal,
    });
    payload = await response.json().catch(() => undefined);
  } catch (error) {
    throw new ConsoleApiError(
      controller.signal.aborted ? 'The upload did not finish in time' : `Network error: ${String(error)}`,
      null,
    );
  } finally {
    clearTimeout(timer);
  }
  const envelope = anyEnvelopeSchema.safeParse(payload);
  if (!envelope.success) throw new ConsoleApiError(`Upload failed (HTTP ${response.status})`, null);
  if (envelope.data.code !== BusinessCode.OK) throw new ConsoleApiError(envelope.data.message, envelope.data.code);
  return releasePackageResponse.parse(envelope.data.data);
}
