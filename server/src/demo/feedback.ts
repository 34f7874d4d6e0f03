import { pushFeedbackRequest } from '@custos/contract';
import { DEMO_MEMBER, type DemoContext } from './context.js';

/**
 * Demo feedback (decision 022): the demo member sends two through the member's own call; the demo
 * operator answers one through the console's call (audited, and a live event like any other), so
 * both states show in the app and in the console's queue. Nothing is added when the member already
 * has feedback, so repeated starts change nothing.
 */
export async function seedFeedback(demo: DemoContext): Promise<void> {
  const { services } = demo;
  if ((await services.feedback.list(await demo.readAs(DEMO_MEMBER.email), 1, 1)).total > 0) return;
  const member = await demo.actAs(DEMO_MEMBER.email);
  const answered = await services.feedback.push(
    member,
    pushFeedbackRequest.parse({
      title: 'Deposit arrival time',
      content: 'How many confirmations does a BEP20 deposit need before it shows in my balance?',
    }),
  );
  await services.feedback.reply(
    demo.operatorId,
    answered.id,
    'Three network confirmations, usually under a minute on BEP20. It then appears under recharge records.',
    demo.origin,
  );
  await services.feedback.push(
    member,
    pushFeedbackRequest.parse({ title: 'Withdrawal window', content: 'Can I request a withdrawal on a public holiday?' }),
  );
}
