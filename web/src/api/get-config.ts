import { commonConfigResponse } from '@custos/contract';
import { apiRequest } from '../lib/api/client';
import { setPlatformTimeZone } from '../lib/format/time';

export async function getConfig() {
  const config = await apiRequest({ method: 'GET', path: '/api/common/config', data: commonConfigResponse });
  // Record times are shown in the platform's day.
  setPlatformTimeZone(config.timeZone);
  return config;
}
