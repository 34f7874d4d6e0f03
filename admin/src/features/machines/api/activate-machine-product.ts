import { machineProductSchema } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

/** Puts a retired product on sale again (audited). */
export function activateMachineProduct(id: string) {
  return consoleRequest({
    method: 'POST',
    path: `/api/admin/machines/products/${encodeURIComponent(id)}/activate`,
    body: {},
    data: machineProductSchema,
  });
}
