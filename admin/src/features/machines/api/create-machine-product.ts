import { machineProductSchema } from '@custos/contract';
import { consoleRequest } from '../../../lib/api';
import type { MachineProductInput } from '../machines';

/** A new machine product, on sale at once (audited). */
export function createMachineProduct(body: MachineProductInput) {
  return consoleRequest({ method: 'POST', path: '/api/admin/machines/products', body, data: machineProductSchema });
}
