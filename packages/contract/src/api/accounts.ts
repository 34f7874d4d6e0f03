import { z } from 'zod';
import { requiredText } from '../validators.js';
import { ACCOUNT_KINDS } from './auth.js';

/** GET /api/account/list: the member's main account and its sub-accounts; `current` is the one in use. */
export const accountListResponse = z.array(
  z.object({
    id: z.string(),
    kind: z.enum(ACCOUNT_KINDS),
    nickname: z.string(),
    avatar: z.string().nullable(),
    inviteCode: z.string(),
    current: z.boolean(),
    createdAt: z.iso.datetime(),
  }),
);
export type AccountList = z.infer<typeof accountListResponse>;

/** POST /api/account/create_sub */
export const createSubAccountRequest = z.object({ nickname: requiredText(20) });
export const createSubAccountResponse = z.object({ id: z.string() });

/** POST /api/account/switch: the session acts for this account from now on. */
export const switchAccountRequest = z.object({ accountId: z.uuid() });
