import { uploadImageResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** Reads a picked file as base64 (without the data: prefix). */
function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result.replace(/^data:[^,]*,/, '') : '');
    reader.onerror = () => reject(reader.error ?? new Error('cannot read the file'));
    reader.readAsDataURL(file);
  });
}

export async function uploadImage(file: File) {
  const contentBase64 = await readBase64(file);
  return apiRequest({
    method: 'POST',
    path: '/api/upload/image',
    body: { purpose: 'identity', contentBase64 },
    data: uploadImageResponse,
  });
}
