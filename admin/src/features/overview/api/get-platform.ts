import { appVersionResponse, commonConfigResponse } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

export async function getPlatform() {
  const [config, appVersion] = await Promise.all([
    consoleRequest({ method: 'GET', path: '/api/common/config', data: commonConfigResponse }),
    consoleRequest({ method: 'GET', path: '/api/common/app_version', data: appVersionResponse }),
  ]);
  return { config, appVersion };
}
