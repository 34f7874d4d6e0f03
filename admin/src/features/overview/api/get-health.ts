import { healthResponse } from '@custos/contract';

/** /healthz answers plain JSON (for load balancers), not an envelope. */
export async function getHealth() {
  const response = await fetch('../healthz', { headers: { accept: 'application/json' } });
  return healthResponse.parse(await response.json());
}
