import { emptyResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** Deletes a saved method; one with a withdrawal in progress is refused with the server's message. */
export function deleteMethod(id: string) {
  return apiRequest({ method: 'POST', path: '/api/withdraw/delete_method', body: { id }, data: emptyResponse });
}
