import { emptyResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** POST /api/otc/chat_read: I have seen the order's chat up to this message (the other party's ticks). */
export function markOrderChatRead(orderId: string, upTo: string) {
  return apiRequest({
    method: 'POST',
    path: '/api/otc/chat_read',
    body: { orderId, upTo },
    data: emptyResponse,
  });
}
