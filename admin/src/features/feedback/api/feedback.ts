import { adminFeedbackResponse, emptyResponse, type FeedbackStatus } from '@custos/contract';
import { consoleRequest, operatorToken } from '../../../lib/api';

export function listFeedback(status: FeedbackStatus, page: number, pageSize: number) {
  const parameters = new URLSearchParams({ status, page: String(page), pageSize: String(pageSize) });
  return consoleRequest({ method: 'GET', path: `/api/admin/feedback?${parameters.toString()}`, data: adminFeedbackResponse });
}

export function replyFeedback(id: string, reply: string) {
  return consoleRequest({
    method: 'POST',
    path: `/api/admin/feedback/${encodeURIComponent(id)}/reply`,
    body: { reply },
    data: emptyResponse,
  });
}

/** Feedback images need the operator's token, so they are fetched and shown from a blob URL. */
export async function fetchFeedbackImage(feedbackId: string, uploadId: string): Promise<string> {
  const response = await fetch(`../api/admin/feedback/${encodeURIComponent(feedbackId)}/image/${encodeURIComponent(uploadId)}`, {
    headers: { authorization: `Bearer ${operatorToken.get() ?? ''}` },
  });
  if (!response.ok) throw new Error(`Image not available (HTTP ${response.status})`);
  return URL.createObjectURL(await response.blob());
}
