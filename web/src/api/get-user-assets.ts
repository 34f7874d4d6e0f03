import { userAssetsResponse } from '@custos/contract';
import { apiRequest } from '../lib/api/client';
import { USER_ASSETS_PATH } from './paths';

export function getUserAssets() {
  return apiRequest({ method: 'GET', path: USER_ASSETS_PATH, data: userAssetsResponse });
}
