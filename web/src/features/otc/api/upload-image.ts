import { uploadImageResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';
import { readBase64 } from '../../../lib/files';

/**
 * POST /api/upload/image: appeal evidence (purpose `otc`) or a chat image (purpose `chat`); the
 * server checks the bytes (JPEG, PNG or WebP, at most 2 MB) and answers the id the call then names.
 */
export async function uploadOtcImage(file: File, purpose: 'otc' | 'chat') {
  const contentBase64 = await readBase64(file);
  return apiRequest({ method: 'POST', path: '/api/upload/image', body: { purpose, contentBase64 }, data: uploadImageResponse });
}
