import { holidaysResponse } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

export function listHolidays() {
  return consoleRequest({ method: 'GET', path: '/api/admin/withdraw/holidays', data: holidaysResponse });
}
