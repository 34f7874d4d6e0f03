import { z } from 'zod';
import { TEXT_AREA_MAX_LENGTH } from '../constants.js';
import { requiredText } from '../validators.js';
import { OPERATOR_ROLES, type OperatorRole } from './admin-auth.js';
import { pageOf, pageQuery } from './paging.js';

/** What each console action needs; the server checks it on every call, the console hides what is not allowed. */
export const OPERATOR_PERMISSIONS = {
  'members.read': ['super_admin', 'finance', 'support', 'reviewer'],
  'members.freeze': ['super_admin', 'support'],
  'members.reset_password': ['super_admin', 'support'],
  'members.reset_authenticator': ['super_admin', 'support'],
  'mail.read': ['super_admin', 'support'],
  'identity.review': ['super_admin', 'reviewer'],
  'audit.read': ['super_admin'],
  'ledger.read': ['super_admin', 'finance', 'support'],
  'ledger.propose': ['super_admin', 'finance'],
  'ledger.approve': ['super_admin', 'finance'],
  'exchange.settings': ['super_admin', 'finance'],
  'operators.manage': ['super_admin'],
  'chain.read': ['super_admin', 'finance', 'support'],
  'withdraw.review': ['super_admin', 'finance'],
  'withdraw.settings': ['super_admin', 'finance'],
  'hosting.manage': ['super_admin', 'finance'],
  'team.manage': ['super_admin', 'finance'],
  /** Moving members between inviters and repairing stored team figures. */
  'team.restructure': ['super_admin'],
  'feedback.reply': ['super_admin', 'support'],
  'content.manage': ['super_admin', 'support'],
  /** Home quotes: pairs, manual prices and the ticker feed (decision 027). */
  'quotes.manage': ['super_admin', 'finance'],
  /** The customer-service inbox: chat with members, assign conversations, manage canned replies. */
  'support.chat': ['super_admin', 'support'],
  /** OTC (decision 031): see listings, orders, appeals and their chats. */
  'otc.read': ['super_admin', 'finance', 'support'],
  /** OTC settings (guide price, band, fees, windows, limits, deposit) and taking listings down. */
  'otc.manage': ['super_admin', 'finance'],
  /** Ruling on OTC appeals (moves escrow, may forfeit a deposit or suspend a member), writing in order chats. */
  'otc.arbitrate': ['super_admin', 'support'],
  /** App releases (decision 037): upload packages, publish to a share of members, roll back. */
  'releases.manage': ['super_admin'],
  /** Contracts (decision 034): products' contract settings, the book, members' orders. */
  'contracts.read': ['super_admin', 'finance', 'support'],
  /** Contract settings, product settings, manual quotes, closing a member's order. */
  'contracts.manage': ['super_admin', 'finance'],
} as const satisfies Record<string, readonly OperatorRole[]>;
export type OperatorPermission = keyof typeof OPERATOR_PERMISSIONS;

export function operatorMay(role: OperatorRole, permission: OperatorPermission): boolean {
  return (OPERATOR_PERMISSIONS[permission] as readonly OperatorRole[]).includes(role);
}

export { OPERATOR_ROLES };

export const MEMBER_STATUSES = ['active', 'frozen'] as const;

export const adminMemberSummary = z.object({
  id: z.string(),
  email: z.string(),
  nickname: z.string(),
  inviteCode: z.string(),
  status: z.enum(MEMBER_STATUSES),
  mustResetPassword: z.boolean(),
  inviterEmail: z.string().nullable(),
  createdAt: z.iso.datetime(),
});
export type AdminMemberSummary = z.infer<typeof adminMemberSummary>;

/** GET /api/admin/members */
export const adminMembersQuery = pageQuery.extend({ query: z.string().trim().max(254).optional() });
export const adminMembersResponse = pageOf(adminMemberSummary);

/** GET /api/admin/members/:id */
export const adminMemberDetail = adminMemberSummary.extend({
  hasTradePassword: z.boolean(),
  hasAuthenticator: z.boolean(),
  locale: z.string(),
  accounts: z.array(
    z.object({
      id: z.string(),
      kind: z.enum(['main', 'sub']),
      nickname: z.string(),
      inviteCode: z.string(),
      /** A platform avatar's path, "upload:<id>" for one the member uploaded, or null. */
      avatar: z.string().nullable(),
      createdAt: z.iso.datetime(),
    }),
  ),
  directInvitees: z.number().int().nonnegative(),
  sessions: z.array(
    z.object({ id: z.string(), ip: z.string().nullable(), userAgent: z.string().nullable(), lastSeenAt: z.iso.datetime() }),
  ),
});
export type AdminMemberDetail = z.infer<typeof adminMemberDetail>;

export const memberIdParams = z.object({ id: z.uuid() });

/** POST /api/admin/members/:id/freeze and /unfreeze */
export const freezeMemberRequest = z.object({ reason: requiredText(TEXT_AREA_MAX_LENGTH) });

/** POST /api/admin/members/:id/reset_password: a temporary password, shown once to the operator. */
export const resetMemberPasswordResponse = z.object({ temporaryPassword: z.string() });

/** GET /api/admin/mail */
/** At most 50 mails a page: every read is audited with the mails it showed (codes are masked). */
export const ADMIN_MAIL_PAGE_SIZE_MAX = 50;
export const adminMailQuery = pageQuery.extend({
  pageSize: z.coerce.number().int().min(1).max(ADMIN_MAIL_PAGE_SIZE_MAX).default(20),
  recipient: z.string().trim().toLowerCase().max(254).optional(),
});
export const adminMailItem = z.object({
  id: z.string(),
  recipient: z.string(),
  subject: z.string(),
  body: z.string(),
  template: z.string(),
  locale: z.string(),
  status: z.enum(['pending', 'sent', 'logged', 'failed']),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: z.iso.datetime(),
  sentAt: z.iso.datetime().nullable(),
});
export const adminMailResponse = pageOf(adminMailItem);
export type AdminMailItem = z.infer<typeof adminMailItem>;

/** GET /api/admin/audit: every operator action, newest first. */
export const adminAuditQuery = pageQuery.extend({
  action: z.string().trim().max(64).optional(),
  targetId: z.string().trim().max(64).optional(),
});
export const adminAuditItem = z.object({
  id: z.string(),
  operator: z.string().nullable(),
  action: z.string(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  ip: z.string().nullable(),
  requestId: z.string().nullable(),
  createdAt: z.iso.datetime(),
});
export type AdminAuditItem = z.infer<typeof adminAuditItem>;
export const adminAuditResponse = pageOf(adminAuditItem);
