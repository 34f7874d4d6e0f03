import { commonConfigResponse } from '@custos/contract';
import { apiRequest } from '../lib/api/client';

export function getConfig() {
  return apiRequest({ method: 'GET', path: '/api/common/config', data: commonConfigResponse });
}
