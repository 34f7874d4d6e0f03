import { UPLOAD_CONTENT_TYPES, UPLOAD_MAX_BYTES } from '@custos/contract';

/**
 * Why a picked file cannot be an avatar, before sending it (the server checks the bytes anyway):
 * too large, or a type the device already knows is not JPEG, PNG or WebP. Null when it may go.
 */
export function avatarFileProblem(file: { type: string; size: number }): 'upload.too_large' | 'upload.invalid_type' | null {
  if (file.size === 0) return 'upload.invalid_type';
  if (file.size > UPLOAD_MAX_BYTES) return 'upload.too_large';
  // Some pickers give no type at all: the server then decides by the bytes.
  if (file.type !== '' && !(UPLOAD_CONTENT_TYPES as readonly string[]).includes(file.type)) return 'upload.invalid_type';
  return null;
}
