import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../constants.js';
import { ValidationReason, requiredText, stringTypeError, verificationCodeSchema } from '../validators.js';

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
  /** Whether an authenticator is bound; until it is, the console only lets the operator bind one. */
  totpBound: z.boolean(),
});
export type Operator = z.infer<typeof operatorSchema>;

/**
 * POST /api/admin/auth/login. Once the operator has bound an authenticator, `googleCode` is needed
 * too: without it a right password answers AUTHENTICATOR_CODE_REQUIRED (4010), so the console can
 * ask for the code.
 */
export const operatorLoginRequest = z.object({
  username: requiredText(64),
  password: z.string({ error: stringTypeError }).min(1, { error: ValidationReason.required }).max(256),
  googleCode: verificationCodeSchema.optional(),
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

/** POST /api/admin/auth/totp/setup: a secret (text and otpauth URI for the QR code) to bind, kept until bound. */
export const operatorTotpSetupResponse = z.object({ secret: z.string(), otpauthUrl: z.string() });
export type OperatorTotpSetup = z.infer<typeof operatorTotpSetupResponse>;

/** POST /api/admin/auth/totp/bind: a code from the authenticator confirms the secret. */
export const operatorTotpBindRequest = z.object({ googleCode: verificationCodeSchema });
export const operatorTotpBindResponse = operatorSchema;

/** POST /api/admin/auth/logout */
export const emptyResponse = z.null();
