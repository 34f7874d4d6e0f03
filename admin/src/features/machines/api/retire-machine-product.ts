import { machineProductSchema } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

/** Takes a product off sale; machines already bought run on (audited). */
export function retireMachineProduct(id: string) {
  return consoleRequest({
    method: 'POST',
    path: `/api/admin/machines/products/${encodeURIComponent(id)}/retire`,
    body: {},
    data: machineProductSchema,
  });
}
