import { adminExchangeSettingsResponse } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

export function getExchangeSettings() {
  return consoleRequest({ method: 'GET', path: '/api/admin/exchange/settings', data: adminExchangeSettingsResponse });
}
