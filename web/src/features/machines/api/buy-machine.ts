import { memberMachineSchema, type MachinePaymentAsset } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/**
 * Buys a machine with USDT or tickets; answers the member's new machine. 4900 (no trading password)
 * is handled by the client; refusals (balance, retired machine, wrong password) come with the
 * server's message.
 */
export function buyMachine(body: {
  machineId: string;
  payWith: MachinePaymentAsset;
  tradePassword: string;
  idempotencyKey: string;
}) {
  return apiRequest({ method: 'POST', path: '/api/machine/buy', body, data: memberMachineSchema });
}
