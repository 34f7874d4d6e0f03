import { uploadImageResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';
import { readBase64 } from '../../../lib/files';

export async function uploadAvatar(file: File) {
  return apiRequest({
    method: 'POST',
    path: '/api/upload/image',
    body: { purpose: 'avatar', contentBase64: await readBase64(file) },
    data: uploadImageResponse,
  });
}
