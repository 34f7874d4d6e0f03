import { machineProductSchema } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';
import type { MachineProductInput } from '../machines';

/** New terms for a product: machines bought from now on take them, bought ones keep theirs (audited). */
export function updateMachineProduct(id: string, body: MachineProductInput) {
  return consoleRequest({
    method: 'PUT',
    path: `/api/admin/machines/products/${encodeURIComponent(id)}`,
    body,
    data: machineProductSchema,
  });
}
