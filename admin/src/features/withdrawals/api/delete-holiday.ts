import { holidaysResponse } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

/** Removes a holiday; answers the whole list. */
export function deleteHoliday(date: string) {
  return consoleRequest({
    method: 'DELETE',
    path: `/api/admin/withdraw/holidays/${encodeURIComponent(date)}`,
    data: holidaysResponse,
  });
}
