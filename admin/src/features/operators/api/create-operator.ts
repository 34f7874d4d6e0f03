import { createOperatorResponse, type OperatorRole } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

export function createOperator(body: { username: string; role: OperatorRole }) {
  return consoleRequest({ method: 'POST', path: '/api/admin/operators', body, data: createOperatorResponse });
}
