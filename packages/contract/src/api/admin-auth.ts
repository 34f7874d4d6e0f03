import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../constants.js';
import { ValidationReason, requiredText, stringTypeError } from '../validators.js';

export const OPERATOR_ROLES = ['super_admin', 'finance', 'support', 'reviewer'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/** Operators choose longer passwords than members: the console moves money. */
export const OPERATOR_PASSWORD_MIN_LENGTH = Math.max(PASSWORD_MIN_LENGTH, 12);

export const operatorPasswordSchema = z
  .string({ error: stringTypeError })
  .min(1, { error: ValidationReason.required })
  .min(OPERATOR_PASSWORD_MIN_LENGTH, { error: ValidationReason.passwordTooShort })
  .max(PASSWORD_MAX_LENGTH, { error: ValidationReason.passwordTooLong });

export const operatorSchema = z.object({
  id: z.string(),
  username: z.string(),
  role: z.enum(OPERATOR_ROLES),
  mustChangePassword: z.boolean(),
});
export type Operator = z.infer<typeof operatorSchema>;

/** POST /api/admin/auth/login */
export const operatorLoginRequest = z.object({
  username: requiredText(64),
  password: z.string({ error: stringTypeError }).min(1, { error: ValidationReason.required }).max(256),
});
export const operatorLoginResponse = z.object({ token: z.string(), operator: operatorSchema });

/** GET /api/admin/auth/me */
export const operatorMeResponse = operatorSchema;

/** POST /api/admin/auth/password */
export const operatorChangePasswordRequest = z.object({
  oldPassword: z.string({ error: stringTypeError }).min(1, { error: ValidationReason.required }).max(256),
  newPassword: operatorPasswordSchema,
});
export const operatorChangePasswordResponse = operatorSchema;

/** POST /api/admin/auth/logout */
export const emptyResponse = z.null();
