import { adminWithdrawSettingsResponse } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

export function getWithdrawSettings() {
  return consoleRequest({ method: 'GET', path: '/api/admin/withdraw/settings', data: adminWithdrawSettingsResponse });
}
