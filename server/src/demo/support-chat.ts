import { agentChatMessageRequest, cannedReplyInput, sendChatMessageRequest } from '@custos/contract';
import { DEMO_MEMBER, type DemoContext } from './context.js';

/** The demo member's question and the agent's answer (the conversation's first two messages). */
export const DEMO_CHAT = {
  question: 'Hello, when does a new custody order start earning interest?',
  answer: 'Hello! Interest accrues from the day after the order starts; you can follow it under custody records.',
} as const;

/**
 * Demo customer service (decision 029): the demo member writes through the member's own call, the
 * demo operator answers through the console's (with the events a real answer sends), and the inbox
 * has two canned replies. Nothing is added when the member already has a conversation.
 */
export async function seedSupportChat(demo: DemoContext): Promise<void> {
  const { services } = demo;
  if ((await services.supportChat.memberConversationId(await demo.readAs(DEMO_MEMBER.email))) !== null) return;
  const member = await demo.actAs(DEMO_MEMBER.email);
  const question = await services.supportChat.memberSend(member, sendChatMessageRequest.parse({ text: DEMO_CHAT.question }));
  const agent = { operatorId: demo.operatorId, origin: demo.origin };
  await services.supportChat.agentSend(agent, question.conversationId, agentChatMessageRequest.parse({ text: DEMO_CHAT.answer }));
  for (const reply of [
    { title: 'Greeting', text: 'Hello! Thank you for contacting customer service. How can we help you today?' },
    { title: 'Deposit confirmations', text: 'BEP20 deposits need three network confirmations, usually under a minute.' },
  ]) {
    await services.supportChat.createCannedReply(agent, cannedReplyInput.parse(reply));
  }
}
