import { uploadImageResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';
import { readBase64 } from '../../../lib/files';

export async function uploadImage(file: File) {
  const contentBase64 = await readBase64(file);
  return apiRequest({
    method: 'POST',
    path: '/api/upload/image',
    body: { purpose: 'identity', contentBase64 },
    data: uploadImageResponse,
  });
}
