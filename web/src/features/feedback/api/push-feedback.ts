import { pushFeedbackResponse, type PushFeedbackRequest } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

export function pushFeedback(body: PushFeedbackRequest) {
  return apiRequest({ method: 'POST', path: '/api/common/push_feedback', body, data: pushFeedbackResponse });
}
