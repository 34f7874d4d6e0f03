import type { ChatMessage, ChatReadState } from '@custos/contract';
import { tickFrom, upTo, type Tick } from '../../components/chat/ticks';

export type { Tick };

/** Where one of my messages stands by the agents' marks; null for the agents' own messages. */
export function tickOf(message: ChatMessage, state: ChatReadState): Tick | null {
  if (message.sender !== 'member') return null;
  return tickFrom(message.id, { deliveredUpTo: state.agentsDeliveredUpTo, readUpTo: state.agentsReadUpTo });
}

/** The newest agent message the member has not marked read yet, if any (what the screen marks read). */
export function unreadAgentMessage(messages: readonly ChatMessage[], state: ChatReadState): string | null {
  const newest = [...messages].reverse().find((message) => message.sender === 'agent');
  return newest && !upTo(newest.id, state.memberReadUpTo) ? newest.id : null;
}
