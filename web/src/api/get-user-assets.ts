import { userAssetsResponse } from '@custos/contract';
import { apiRequest } from '../lib/api/client';

export function getUserAssets() {
  return apiRequest({ method: 'GET', path: '/api/user/assets', data: userAssetsResponse });
}
