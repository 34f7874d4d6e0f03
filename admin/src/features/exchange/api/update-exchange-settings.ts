import { adminExchangeSettingsResponse, type ExchangeSettings } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

/** Saves the exchange settings (audited on the server with the values before and after). */
export function updateExchangeSettings(settings: ExchangeSettings) {
  return consoleRequest({
    method: 'PUT',
    path: '/api/admin/exchange/settings',
    body: settings,
    data: adminExchangeSettingsResponse,
  });
}
