import type { Services } from '../container.js';
import type { Db } from '../db/client.js';
import { FeedbackRepository } from '../modules/feedback/feedback.repository.js';

/**
 * Demo feedback for one demo member (issue 13): one answered by an operator, one awaiting a reply,
 * so both states show in the app and in the console's queue. Adds nothing when the member already
 * has feedback, so repeated starts change nothing. The reply goes through the service: it is audited
 * and becomes a live event like any other.
 */
export async function seedDemoFeedback(db: Db, services: Services, memberId: string, operatorId: string): Promise<void> {
  const repository = new FeedbackRepository(db);
  const { total } = await repository.listForMember(memberId, 1, 0);
  if (total > 0) return;
  const answered = await db.transaction((tx) =>
    repository.insert(
      tx,
      {
        memberId,
        title: 'Deposit arrival time',
        content: 'How many confirmations does a BEP20 deposit need before it shows in my balance?',
        orderNo: null,
      },
      [],
    ),
  );
  await services.feedback.reply(
    operatorId,
    answered.id,
    'Three network confirmations, usually under a minute on BEP20. It then appears under recharge records.',
    { ip: '127.0.0.1', userAgent: 'demo seed', requestId: 'demo-seed' },
  );
  await db.transaction((tx) =>
    repository.insert(
      tx,
      {
        memberId,
        title: 'Withdrawal window',
        content: 'Can I request a withdrawal on a public holiday?',
        orderNo: null,
      },
      [],
    ),
  );
}
