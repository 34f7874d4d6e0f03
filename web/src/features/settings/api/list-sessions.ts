import { sessionsResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

export function listSessions() {
  return apiRequest({ method: 'GET', path: '/api/user/sessions', data: sessionsResponse });
}
