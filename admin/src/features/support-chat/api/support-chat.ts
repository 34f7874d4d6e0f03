import {
  cannedRepliesResponse,
  cannedReply,
  chatHistoryResponse,
  chatMessage,
  chatReadState,
  emptyResponse,
  supportConversationDetail,
  supportConversationItem,
  supportInboxResponse,
  type AgentChatMessageRequest,
  type SupportInboxFilter,
} from '@custos/contract';
import { consoleRequest, operatorToken } from '../../../lib/api';

const id = encodeURIComponent;

export function listConversations(filter: SupportInboxFilter, page: number, pageSize: number) {
  const parameters = new URLSearchParams({ filter, page: String(page), pageSize: String(pageSize) });
  return consoleRequest({
    method: 'GET',
    path: `/api/admin/support/conversations?${parameters.toString()}`,
    data: supportInboxResponse,
  });
}

export function getConversation(conversationId: string) {
  return consoleRequest({
    method: 'GET',
    path: `/api/admin/support/conversations/${id(conversationId)}`,
    data: supportConversationDetail,
  });
}

export function getMessages(conversationId: string, before?: string) {
  const query = before === undefined ? '' : `?before=${id(before)}`;
  return consoleRequest({
    method: 'GET',
    path: `/api/admin/support/conversations/${id(conversationId)}/messages${query}`,
    data: chatHistoryResponse,
  });
}

export function sendMessage(conversationId: string, body: AgentChatMessageRequest) {
  return consoleRequest({
    method: 'POST',
    path: `/api/admin/support/conversations/${id(conversationId)}/messages`,
    body,
    data: chatMessage,
  });
}

export function markRead(conversationId: string, upTo: string) {
  return consoleRequest({
    method: 'POST',
    path: `/api/admin/support/conversations/${id(conversationId)}/read`,
    body: { upTo },
    data: chatReadState,
  });
}

export function assign(conversationId: string, to: 'me' | 'nobody') {
  return consoleRequest({
    method: 'POST',
    path: `/api/admin/support/conversations/${id(conversationId)}/assign`,
    body: { to },
    data: supportConversationItem,
  });
}

export function listCannedReplies() {
  return consoleRequest({ method: 'GET', path: '/api/admin/support/canned-replies', data: cannedRepliesResponse });
}

export function saveCannedReply(input: { title: string; text: string }, replyId?: string) {
  return replyId === undefined
    ? consoleRequest({ method: 'POST', path: '/api/admin/support/canned-replies', body: input, data: cannedReply })
    : consoleRequest({ method: 'PUT', path: `/api/admin/support/canned-replies/${id(replyId)}`, body: input, data: cannedReply });
}

export function deleteCannedReply(replyId: string) {
  return consoleRequest({ method: 'DELETE', path: `/api/admin/support/canned-replies/${id(replyId)}`, data: emptyResponse });
}

/** Conversation images need the operator's token, so they are fetched and shown from a blob URL. */
export async function fetchChatImage(conversationId: string, messageId: string): Promise<string> {
  const response = await fetch(`../api/admin/support/conversations/${id(conversationId)}/image/${id(messageId)}`, {
    headers: { authorization: `Bearer ${operatorToken.get() ?? ''}` },
  });
  if (!response.ok) throw new Error(`Image not available (HTTP ${response.status})`);
  return URL.createObjectURL(await response.blob());
}

/** A picked file as base64 (the server checks its bytes). */
export function fileToBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result.replace(/^data:[^,]*,/, '') : '');
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsDataURL(file);
  });
}
