import { adminWithdrawSettingsResponse, type WithdrawSettings } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

/** Saves the withdrawal settings (audited on the server with the values before and after). */
export function updateWithdrawSettings(settings: WithdrawSettings) {
  return consoleRequest({
    method: 'PUT',
    path: '/api/admin/withdraw/settings',
    body: settings,
    data: adminWithdrawSettingsResponse,
  });
}
