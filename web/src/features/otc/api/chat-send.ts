import { otcChatSendResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** POST /api/otc/chat_send: a text or one image to the other party (open orders only). */
export function sendOrderChat(body: { orderId: string; text?: string; imageId?: string }) {
  return apiRequest({ method: 'POST', path: '/api/otc/chat_send', body, data: otcChatSendResponse });
}
