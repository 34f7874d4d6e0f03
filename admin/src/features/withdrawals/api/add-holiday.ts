import { holidaysResponse } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

/** Adds a day without withdrawals; answers the whole list. */
export function addHoliday(holiday: { date: string; note: string }) {
  return consoleRequest({ method: 'POST', path: '/api/admin/withdraw/holidays', body: holiday, data: holidaysResponse });
}
