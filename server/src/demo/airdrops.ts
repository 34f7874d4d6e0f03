import { airdropRequest } from '@custos/contract';
import { DEMO_MEMBER, type DemoContext } from './context.js';

/** A week: when the demo's scheduled airdrop arrives, counted from the first start. */
const SCHEDULED_IN_MS = 7 * 24 * 3600 * 1000;

/**
 * Demo airdrops (decision 025), made by the demo operator through the console's calls (audited): one
 * of 50 RAB to the demo member and its three direct members that has arrived (paid by the arrival run
 * the job would make), and one of 20 RAB to every member at V1 or above, scheduled a week ahead, so the
 * income log shows "arrived" and "to arrive" and the console both states. Nothing is added when any
 * campaign exists.
 */
export async function seedAirdrops(demo: DemoContext, team: readonly string[]): Promise<void> {
  const { services } = demo;
  if ((await services.airdrops.campaigns(1, 1)).total > 0) return;
  const welcome = await services.airdrops.create(
    demo.operatorId,
    airdropRequest.parse({
      name: 'Welcome airdrop',
      amount: '50',
      selection: 'list',
      members: [DEMO_MEMBER.email, ...team],
    }),
    demo.origin,
  );
  await services.airdrops.arrive(welcome.id);
  await services.airdrops.create(
    demo.operatorId,
    airdropRequest.parse({
      name: 'V1 holiday airdrop',
      amount: '20',
      selection: 'level',
      minLevel: 1,
      arriveAt: new Date(Date.now() + SCHEDULED_IN_MS).toISOString(),
    }),
    demo.origin,
  );
}
