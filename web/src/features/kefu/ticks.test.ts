import { describe, expect, it } from 'vitest';
import type { ChatMessage, ChatReadState } from '@custos/contract';
import { tickOf, unreadAgentMessage } from './ticks';

function message(id: string, sender: 'member' | 'agent'): ChatMessage {
  return { id, conversationId: 'c', sender, agentName: null, text: 'x', hasImage: false, createdAt: '2026-11-26T00:00:00.000Z' };
}
const state = (agentsDelivered: string, agentsRead: string, memberRead = '0'): ChatReadState => ({
  memberDeliveredUpTo: '0',
  memberReadUpTo: memberRead,
  agentsDeliveredUpTo: agentsDelivered,
  agentsReadUpTo: agentsRead,
});

describe('chat ticks', () => {
  it('sent, delivered, read by the agents’ marks, compared as numbers', () => {
    expect(tickOf(message('10', 'member'), state('9', '0'))).toBe('sent');
    expect(tickOf(message('10', 'member'), state('10', '9'))).toBe('delivered');
    expect(tickOf(message('10', 'member'), state('12', '11'))).toBe('read');
    expect(tickOf(message('10', 'agent'), state('12', '11'))).toBeNull();
  });

  it('finds the newest agent message the member has not read', () => {
    const list = [message('1', 'agent'), message('2', 'member'), message('9', 'agent'), message('10', 'member')];
    expect(unreadAgentMessage(list, state('0', '0', '1'))).toBe('9');
    expect(unreadAgentMessage(list, state('0', '0', '9'))).toBeNull();
    expect(unreadAgentMessage([message('2', 'member')], state('0', '0'))).toBeNull();
  });
});
