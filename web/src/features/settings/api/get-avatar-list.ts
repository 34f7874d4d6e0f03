import { avatarListResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

export function getAvatarList() {
  return apiRequest({ method: 'GET', path: '/api/common/avatar_list', data: avatarListResponse });
}
