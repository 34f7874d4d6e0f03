import { uploadImageResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';
import { readBase64 } from '../../../lib/files';

/** The server checks the bytes (JPEG, PNG or WebP, at most 2 MB) and answers the id the feedback names. */
export async function uploadFeedbackImage(file: File) {
  const contentBase64 = await readBase64(file);
  return apiRequest({
    method: 'POST',
    path: '/api/upload/image',
    body: { purpose: 'feedback', contentBase64 },
    data: uploadImageResponse,
  });
}
