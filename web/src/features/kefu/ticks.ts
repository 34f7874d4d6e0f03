import type { ChatMessage, ChatReadState } from '@custos/contract';

/** Where one of my messages stands: stored, fetched by an agent's console, or seen by an agent. */
export type Tick = 'sent' | 'delivered' | 'read';

/** Message ids are bigserial strings: compared as numbers, never as text ("9" < "10"). */
export function upTo(id: string, mark: string): boolean {
  return BigInt(id) <= BigInt(mark);
}

export function tickOf(message: ChatMessage, state: ChatReadState): Tick | null {
  if (message.sender !== 'member') return null;
  if (upTo(message.id, state.agentsReadUpTo)) return 'read';
  if (upTo(message.id, state.agentsDeliveredUpTo)) return 'delivered';
  return 'sent';
}

/** The newest agent message the member has not marked read yet, if any (what the screen marks read). */
export function unreadAgentMessage(messages: readonly ChatMessage[], state: ChatReadState): string | null {
  const newest = [...messages].reverse().find((message) => message.sender === 'agent');
  return newest && !upTo(newest.id, state.memberReadUpTo) ? newest.id : null;
}
