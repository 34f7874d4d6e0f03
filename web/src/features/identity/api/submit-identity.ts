import { emptyResponse, type DocumentType } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

export function submitIdentity(body: {
  documentType: DocumentType;
  idNumber: string;
  realName: string;
  frontImageId: string;
  backImageId: string;
  selfieImageId: string;
}) {
  return apiRequest({ method: 'POST', path: '/api/user/identity', body, data: emptyResponse });
}
