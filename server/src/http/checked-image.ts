import { createHash } from 'node:crypto';
import { UPLOAD_MAX_BYTES } from '@custos/contract';
import { sniffImageType } from '../lib/image-type.js';
import { AppError } from './app-error.js';

export interface CheckedImage {
  content: Buffer;
  contentType: 'image/jpeg' | 'image/png' | 'image/webp';
  sizeBytes: number;
  sha256: string;
}

/**
 * An uploaded image as the server keeps it, from the base64 the client sent: at most 2 MB, and a
 * JPEG, PNG or WebP by its own first bytes (never by a name or a header). Members' uploads and
 * operators' content images both come through here, so both refuse the same files the same way.
 */
export function checkedImage(contentBase64: string): CheckedImage {
  const content = Buffer.from(contentBase64, 'base64');
  if (content.length === 0) throw AppError.badRequest('upload.invalid_type');
  if (content.length > UPLOAD_MAX_BYTES) throw AppError.badRequest('upload.too_large');
  const contentType = sniffImageType(content);
  if (!contentType) throw AppError.badRequest('upload.invalid_type');
  return { content, contentType, sizeBytes: content.length, sha256: createHash('sha256').update(content).digest('hex') };
}
