import { z } from 'zod';
import { apiRequest } from '../../../lib/api/client';

export function signOutOthers() {
  return apiRequest({ method: 'POST', path: '/api/user/sessions/sign_out_others', data: z.object({ ended: z.number().int() }) });
}
