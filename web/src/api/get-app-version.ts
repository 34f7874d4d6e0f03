import { appVersionResponse } from '@custos/contract';
import { apiRequest } from '../lib/api/client';

export function getAppVersion() {
  return apiRequest({ method: 'GET', path: '/api/common/app_version', data: appVersionResponse });
}
