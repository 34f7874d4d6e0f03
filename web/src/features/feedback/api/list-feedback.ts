import { feedbackListResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

export function listFeedback(query: { page: number; pageSize: number }) {
  return apiRequest({ method: 'GET', path: '/api/common/feedback_list', query, data: feedbackListResponse });
}
