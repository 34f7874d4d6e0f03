import {
  chatHistoryResponse,
  chatMessage,
  chatReadState,
  chatUnreadResponse,
  uploadImageResponse,
  type SendChatMessageRequest,
} from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';
import { readBase64 } from '../../../lib/files';

/** A page of my conversation: the newest without `before`, older ones with the page's `nextBefore`. */
export function getChatHistory(before: string | undefined) {
  return apiRequest({
    method: 'GET',
    path: '/api/support/chat/messages',
    query: before === undefined ? { limit: 30 } : { before, limit: 30 },
    data: chatHistoryResponse,
  });
}

export function sendChatMessage(body: SendChatMessageRequest) {
  return apiRequest({ method: 'POST', path: '/api/support/chat/messages', body, data: chatMessage });
}

export function markChatRead(upTo: string) {
  return apiRequest({ method: 'POST', path: '/api/support/chat/read', body: { upTo }, data: chatReadState });
}

export function getChatUnread() {
  return apiRequest({ method: 'GET', path: '/api/support/chat/unread', data: chatUnreadResponse });
}

/** The server checks the bytes (JPEG, PNG or WebP, at most 2 MB); the message then names the upload. */
export async function uploadChatImage(file: File) {
  const contentBase64 = await readBase64(file);
  return apiRequest({
    method: 'POST',
    path: '/api/upload/image',
    body: { purpose: 'chat', contentBase64 },
    data: uploadImageResponse,
  });
}
