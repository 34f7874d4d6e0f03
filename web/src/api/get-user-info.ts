import { userInfoResponse } from '@custos/contract';
import { apiRequest } from '../lib/api/client';

export function getUserInfo() {
  return apiRequest({ method: 'GET', path: '/api/user/info', data: userInfoResponse });
}
