import { z } from 'zod';
import { TEXT_AREA_MAX_LENGTH, UPLOAD_BASE64_MAX_LENGTH } from '../constants.js';
import { ValidationReason, isIdCard, requiredText } from '../validators.js';
import { pageOf, pageQuery } from './paging.js';

export const UPLOAD_CONTENT_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
/** What an upload is for: identity documents go to reviewers, avatars to the member's profile. */
export const UPLOAD_PURPOSES = ['identity', 'avatar', 'feedback', 'chat', 'otc'] as const;
export type UploadPurpose = (typeof UPLOAD_PURPOSES)[number];

/**
 * An account's avatar is either a path from the platform's list ("avatars/a01.svg") or an image the
 * member uploaded, written "upload:<upload id>" and fetched from GET /api/upload/image/:id.
 */
export const UPLOADED_AVATAR_PREFIX = 'upload:';
const UPLOADED_AVATAR_PATTERN = /^upload:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

export function uploadedAvatar(uploadId: string): string {
  return `${UPLOADED_AVATAR_PREFIX}${uploadId}`;
}

/** The upload id behind an uploaded avatar, or null for a platform avatar (or none). */
export function uploadedAvatarId(avatar: string | null | undefined): string | null {
  return UPLOADED_AVATAR_PATTERN.exec(avatar ?? '')?.[1] ?? null;
}

/** POST /api/upload/image: the file as base64; answers the id the other calls refer to. */
export const uploadImageRequest = z.object({
  purpose: z.enum(UPLOAD_PURPOSES),
  contentBase64: z
    .string({ error: ValidationReason.required })
    .min(1, { error: ValidationReason.required })
    // Twice what a 2 MB file needs: the exact size is checked on the decoded bytes, with a clear message.
    .max(UPLOAD_BASE64_MAX_LENGTH, { error: ValidationReason.tooLong }),
});
export const uploadImageResponse = z.object({ id: z.string() });

export const DOCUMENT_TYPES = ['id_card', 'passport', 'driver_license'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];
export const IDENTITY_STATUSES = ['unverified', 'pending', 'approved', 'failed'] as const;
export type IdentityStatus = (typeof IDENTITY_STATUSES)[number];

/** POST /api/user/identity: documents for review (a resident ID card number is checked by its check digit). */
export const submitIdentityRequest = z
  .object({
    documentType: z.enum(DOCUMENT_TYPES),
    idNumber: requiredText(32).toUpperCase(),
    realName: requiredText(64),
    frontImageId: z.uuid(),
    backImageId: z.uuid(),
    selfieImageId: z.uuid(),
  })
  .superRefine((value, context) => {
    const valid = value.documentType === 'id_card' ? isIdCard(value.idNumber) : /^[A-Z0-9-]{5,32}$/.test(value.idNumber);
    if (!valid) context.addIssue({ code: 'custom', path: ['idNumber'], message: ValidationReason.invalid });
  });

/** GET /api/user/identity */
export const identityResponse = z.object({
  status: z.enum(IDENTITY_STATUSES),
  documentType: z.enum(DOCUMENT_TYPES).nullable(),
  idNumberMasked: z.string().nullable(),
  realName: z.string().nullable(),
  failReason: z.string().nullable(),
  submittedAt: z.iso.datetime().nullable(),
});
export type IdentityState = z.infer<typeof identityResponse>;

/** GET /api/admin/identity: the review queue (pending first). */
export const adminIdentityQuery = pageQuery.extend({ status: z.enum(['pending', 'approved', 'failed']).default('pending') });
export const adminIdentityItem = z.object({
  id: z.string(),
  memberId: z.string(),
  email: z.string(),
  documentType: z.enum(DOCUMENT_TYPES),
  idNumber: z.string(),
  realName: z.string(),
  status: z.enum(['pending', 'approved', 'failed']),
  failReason: z.string().nullable(),
  frontImageId: z.string(),
  backImageId: z.string(),
  selfieImageId: z.string(),
  submittedAt: z.iso.datetime(),
  reviewedAt: z.iso.datetime().nullable(),
});
export type AdminIdentityItem = z.infer<typeof adminIdentityItem>;
export const adminIdentityResponse = pageOf(adminIdentityItem);

export const identityIdParams = z.object({ id: z.uuid() });
export const uploadIdParams = z.object({ id: z.uuid() });
export const failIdentityRequest = z.object({ reason: requiredText(TEXT_AREA_MAX_LENGTH) });
