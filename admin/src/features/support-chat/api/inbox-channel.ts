import { agentEvent, type AgentEvent } from '@custos/contract';
import { openOperatorChannel } from '../../../lib/live-channel';

/**
 * The inbox's live channel (decision 029): every member's message, read mark and assignment,
 * whichever server instance it happened on. Answers the function that closes it.
 */
export function openInboxChannel(onEvent: (event: AgentEvent) => void, onOpen: () => void = () => undefined): () => void {
  return openOperatorChannel({
    path: '/api/admin/support/events',
    parse: (data) => {
      const parsed = agentEvent.safeParse(data);
      return parsed.success ? parsed.data : null;
    },
    onEvent,
    onOpen,
  });
}
