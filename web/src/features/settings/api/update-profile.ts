import { emptyResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

export function updateProfile(body: { nickname?: string; avatar?: string }) {
  return apiRequest({ method: 'POST', path: '/api/user/update_profile', body, data: emptyResponse });
}
