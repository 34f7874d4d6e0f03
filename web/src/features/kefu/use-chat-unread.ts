import { useQuery } from '@tanstack/react-query';
import { credential } from '../../lib/auth/credential';
import { getChatUnread } from './api/chat';
import { chatKeys } from './api/keys';

/**
 * How many customer-service messages the member has not read: the floating button's badge. An
 * agent's message (live event) invalidates the chat domain, so the badge follows without polling.
 */
export function useChatUnread(): number {
  const query = useQuery({ queryKey: chatKeys.unread(), queryFn: getChatUnread, enabled: credential.get() !== null });
  return query.data?.unread ?? 0;
}
