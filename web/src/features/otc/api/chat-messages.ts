import { otcChatHistoryResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** GET /api/otc/chat_messages: a page of the order's chat, the newest without `before`. */
export function getOrderChat(orderId: string, before: string | undefined) {
  return apiRequest({
    method: 'GET',
    path: '/api/otc/chat_messages',
    query: before === undefined ? { id: orderId, limit: 30 } : { id: orderId, before, limit: 30 },
    data: otcChatHistoryResponse,
  });
}
