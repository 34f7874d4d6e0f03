import { z } from 'zod';
import { ValidationReason, requiredText } from '../validators.js';
import { OPERATOR_ROLES } from './admin-auth.js';

/** Operator usernames: 3–32 of a–z, 0–9, dot, dash, underscore, starting with a letter or digit (stored lower-case). */
export const OPERATOR_USERNAME_PATTERN = /^[a-z0-9][a-z0-9._-]{2,31}$/;

export const operatorUsernameSchema = requiredText(32)
  .toLowerCase()
  .refine((value) => OPERATOR_USERNAME_PATTERN.test(value), { error: ValidationReason.invalid });

/** Missing → "please enter role"; anything but a known role → "role: invalid value". */
export const operatorRoleSchema = z.enum(OPERATOR_ROLES, {
  error: (issue) => (issue.input === undefined || issue.input === null ? ValidationReason.required : ValidationReason.invalid),
});

/** One operator as the accounts page lists it. */
export const adminOperatorItem = z.object({
  id: z.string(),
  username: z.string(),
  role: z.enum(OPERATOR_ROLES),
  totpBound: z.boolean(),
  disabled: z.boolean(),
  mustChangePassword: z.boolean(),
  createdAt: z.iso.datetime(),
  /** The last successful console log-in, from the audit log. */
  lastLoginAt: z.iso.datetime().nullable(),
});
export type AdminOperatorItem = z.infer<typeof adminOperatorItem>;

/** GET /api/admin/operators: every operator, oldest first. */
export const adminOperatorsResponse = z.array(adminOperatorItem);

export const operatorIdParams = z.object({ id: z.uuid() });

/** POST /api/admin/operators: a new operator with a one-time password, shown once to the creator. */
export const createOperatorRequest = z.object({ username: operatorUsernameSchema, role: operatorRoleSchema });
export const createOperatorResponse = z.object({ operator: adminOperatorItem, oneTimePassword: z.string() });

/** POST /api/admin/operators/:id/role */
export const changeOperatorRoleRequest = z.object({ role: operatorRoleSchema });

/** POST /api/admin/operators/:id/reset_password: a new one-time password, shown once; the operator's sessions end. */
export const resetOperatorPasswordResponse = z.object({ oneTimePassword: z.string() });
