import { z } from 'zod';
import { PASSWORD_MAX_LENGTH } from '../constants.js';
import {
  ValidationReason,
  emailSchema,
  passwordSchema,
  requiredText,
  stringTypeError,
  verificationCodeSchema,
} from '../validators.js';

/** Invitation codes: 6–16 letters and digits, compared in upper case. */
export const invitationCodeSchema = requiredText(16)
  .toUpperCase()
  .refine((value) => /^[A-Z0-9]{6,16}$/.test(value), { error: ValidationReason.invalid });

const confirmSchema = z.string({ error: stringTypeError }).min(1, { error: ValidationReason.required }).max(PASSWORD_MAX_LENGTH);

/** Adds the "two passwords do not match" check on `confirmPassword`. */
function withConfirmation<T extends { password: string; confirmPassword: string }>(schema: z.ZodType<T>) {
  return schema.superRefine((value, context) => {
    if (value.password !== value.confirmPassword) {
      context.addIssue({ code: 'custom', path: ['confirmPassword'], message: ValidationReason.passwordsDiffer });
    }
  });
}

/** Any password the member types to prove who they are (not checked for length: old ones may be shorter). */
const existingPasswordSchema = z.string({ error: stringTypeError }).min(1, { error: ValidationReason.required }).max(256);

/** POST /api/auth/send_register_code */
export const sendRegisterCodeRequest = z.object({ email: emailSchema, invitationCode: invitationCodeSchema });

/** POST /api/auth/check_register_info: is this code right (without using it up)? */
export const checkRegisterInfoRequest = z.object({ email: emailSchema, code: verificationCodeSchema });

/** POST /api/auth/register */
export const registerRequest = withConfirmation(
  z.object({
    email: emailSchema,
    code: verificationCodeSchema,
    invitationCode: invitationCodeSchema,
    password: passwordSchema,
    confirmPassword: confirmSchema,
  }),
);

/** POST /api/auth/login */
export const loginRequest = z.object({ email: emailSchema, password: existingPasswordSchema });

/** POST /api/auth/send_login_code */
export const sendLoginCodeRequest = z.object({ email: emailSchema });

/** POST /api/auth/login_by_code */
export const loginByCodeRequest = z.object({ email: emailSchema, code: verificationCodeSchema });

/** POST /api/auth/send_forgot_code */
export const sendForgotCodeRequest = z.object({ email: emailSchema });

/** POST /api/auth/check_forgot_code */
export const checkForgotCodeRequest = z.object({ email: emailSchema, code: verificationCodeSchema });

/** POST /api/auth/reset_password */
export const resetPasswordRequest = withConfirmation(
  z.object({ email: emailSchema, code: verificationCodeSchema, password: passwordSchema, confirmPassword: confirmSchema }),
);

/** A new session: the token goes into `Authorization` on every later call. */
export const sessionResponse = z.object({ token: z.string() });
export type SessionResponse = z.infer<typeof sessionResponse>;

/** What "code sent" calls answer: when the next send is allowed. */
export const codeSentResponse = z.object({ resendAfterS: z.number().int().nonnegative() });

export const ACCOUNT_KINDS = ['main', 'sub'] as const;

/** GET /api/user/info */
export const userInfoResponse = z.object({
  memberId: z.string(),
  accountId: z.string(),
  accountKind: z.enum(ACCOUNT_KINDS),
  email: z.string(),
  nickname: z.string(),
  avatar: z.string().nullable(),
  inviteCode: z.string(),
  hasTradePassword: z.boolean(),
  hasAuthenticator: z.boolean(),
  createdAt: z.iso.datetime(),
});
export type UserInfo = z.infer<typeof userInfoResponse>;

/** GET /api/user/sessions */
export const sessionsResponse = z.array(
  z.object({
    id: z.string(),
    current: z.boolean(),
    ip: z.string().nullable(),
    userAgent: z.string().nullable(),
    createdAt: z.iso.datetime(),
    lastSeenAt: z.iso.datetime(),
  }),
);
export type SessionList = z.infer<typeof sessionsResponse>;

/** POST /api/user/update_password_forced (code 300): a new login password, no old one needed. */
export const forcedPasswordRequest = withConfirmation(z.object({ password: passwordSchema, confirmPassword: confirmSchema }));

/** Once an authenticator is bound, security changes also need its current code. */
const googleCodeField = { googleCode: verificationCodeSchema.optional() };

/** POST /api/user/update_password: change the login password (other sessions end). */
export const updatePasswordRequest = withConfirmation(
  z.object({ oldPassword: existingPasswordSchema, password: passwordSchema, confirmPassword: confirmSchema, ...googleCodeField }),
);

/** POST /api/user/set_trade_password: the first trading password (money calls answer 4900 until then). */
export const setTradePasswordRequest = withConfirmation(z.object({ password: passwordSchema, confirmPassword: confirmSchema }));

/** POST /api/user/update_trade_password */
export const updateTradePasswordRequest = withConfirmation(
  z.object({
    oldTradePassword: existingPasswordSchema,
    password: passwordSchema,
    confirmPassword: confirmSchema,
    ...googleCodeField,
  }),
);

/** POST /api/user/reset_trade_password: forgotten trading password, by e-mail code. */
export const resetTradePasswordRequest = withConfirmation(
  z.object({ code: verificationCodeSchema, password: passwordSchema, confirmPassword: confirmSchema, ...googleCodeField }),
);

/** GET /api/user/google_2fa: whether one is bound, and a secret (as text and otpauth URI) to bind next. */
export const authenticatorResponse = z.object({ bound: z.boolean(), secret: z.string(), otpauthUrl: z.string() });
export type AuthenticatorSetup = z.infer<typeof authenticatorResponse>;

/** POST /api/user/google_2fa/bind */
export const bindAuthenticatorRequest = z.object({ googleCode: verificationCodeSchema });

/** POST /api/user/google_2fa/change: a code from the old authenticator and one from the new. */
export const changeAuthenticatorRequest = z.object({
  oldGoogleCode: verificationCodeSchema,
  newGoogleCode: verificationCodeSchema,
});

/** GET /api/common/avatar_list: the avatars a member may pick (paths relative to the app). */
export const avatarListResponse = z.array(z.string());

/** POST /api/user/update_profile: nickname and/or an avatar from the list. */
export const updateProfileRequest = z
  .object({ nickname: requiredText(20).optional(), avatar: z.string().max(200).optional() })
  .refine((value) => value.nickname !== undefined || value.avatar !== undefined, {
    error: ValidationReason.required,
    path: ['nickname'],
  });
