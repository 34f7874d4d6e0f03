import {
  BusinessCode,
  type AdminIdentityItem,
  type DocumentType,
  type IdentityState,
  type UploadPurpose,
} from '@custos/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import { checkedImage } from '../../http/checked-image.js';
import type { RequestOrigin } from '../../http/origin.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import type { MemberSessionContext } from '../auth/auth.service.js';
import type { OperatorSession } from '../operators/operator.service.js';
import type { RateLimitRule, RateLimitService } from '../rate-limit/rate-limit.service.js';
import type { IdentityRepository, IdentityRow } from './identity.repository.js';

/** "110105********002X" or "E1*****78": enough for the member to recognise, not enough to copy. */
export function maskIdNumber(idNumber: string): string {
  const long = idNumber.length > 10;
  const head = long ? 6 : 2;
  const tail = long ? 4 : 2;
  return `${idNumber.slice(0, head)}${'*'.repeat(Math.max(2, idNumber.length - head - tail))}${idNumber.slice(-tail)}`;
}

/** Uploads per member per hour, whatever becomes of them. */
export const UPLOADS_PER_MEMBER: RateLimitRule = { name: 'upload:member', maxAttempts: 30, windowS: 3600 };
/**
 * Uploads nothing points at yet (not in a submission, not an avatar) that a member may keep: enough
 * for a submission's three images and a few retries, not enough to fill the database.
 */
export const UNUSED_UPLOADS_MAX_COUNT = 10;
export const UNUSED_UPLOADS_MAX_BYTES = 10 * 1024 * 1024;
/** Unused uploads older than this are removed when their owner uploads again. */
export const UNUSED_UPLOAD_TTL_S = 24 * 3600;

export interface ImageFile {
  contentType: string;
  content: Buffer;
}

/**
 * Real-name verification: uploads (identity documents and avatars), the member's submission, and
 * the reviewers' decisions (audited).
 */
export class IdentityService {
  constructor(
    private readonly db: Db,
    private readonly repository: IdentityRepository,
    private readonly audit: AuditRepository,
    private readonly rateLimits: RateLimitService,
  ) {}

  /**
   * Stores an image for its owner: at most UPLOADS_PER_MEMBER an hour (429), and at most
   * UNUSED_UPLOADS_MAX_COUNT images / UNUSED_UPLOADS_MAX_BYTES that nothing uses yet (409). Unused
   * images older than a day are removed first.
   */
  async upload(context: MemberSessionContext, purpose: UploadPurpose, contentBase64: string): Promise<string> {
    try {
      await this.rateLimits.consume(UPLOADS_PER_MEMBER, context.member.id);
    } catch (error) {
      if (error instanceof AppError && error.code === BusinessCode.TOO_MANY_REQUESTS) {
        throw new AppError(error.code, 'upload.too_many', error.params, error.headers);
      }
      throw error;
    }
    const { content, contentType, sizeBytes, sha256 } = checkedImage(contentBase64);
    return this.db.transaction(async (tx) => {
      // One upload of a member at a time, so parallel uploads cannot all pass the same count.
      await this.repository.lockMember(context.member.id, tx);
      await this.repository.deleteUnusedUploads(context.member.id, UNUSED_UPLOAD_TTL_S, tx);
      const unused = await this.repository.unusedUploads(context.member.id, tx);
      if (unused.count + 1 > UNUSED_UPLOADS_MAX_COUNT || unused.bytes + content.length > UNUSED_UPLOADS_MAX_BYTES) {
        throw AppError.conflict('upload.quota_exceeded', {
          count: UNUSED_UPLOADS_MAX_COUNT,
          megabytes: UNUSED_UPLOADS_MAX_BYTES / (1024 * 1024),
        });
      }
      return this.repository.insertUpload(
        {
          ownerMemberId: context.member.id,
          purpose,
          contentType,
          sizeBytes,
          sha256,
          content,
        },
        tx,
      );
    });
  }

  /** An image for its owner only. */
  async imageForMember(context: MemberSessionContext, uploadId: string): Promise<ImageFile> {
    const upload = await this.repository.findUpload(uploadId);
    if (!upload || upload.ownerMemberId !== context.member.id) throw AppError.notFound();
    return { contentType: upload.contentType, content: upload.content };
  }

  /** An uploaded avatar, for operators who may read members. */
  async avatarForOperator(uploadId: string): Promise<ImageFile> {
    const upload = await this.repository.findUpload(uploadId);
    if (!upload || upload.purpose !== 'avatar') throw AppError.notFound();
    return { contentType: upload.contentType, content: upload.content };
  }

  /** An image for a reviewer: only those that are part of a submission. */
  async imageForReviewer(uploadId: string): Promise<ImageFile> {
    const upload = await this.repository.findUpload(uploadId);
    if (!upload || !(await this.repository.uploadInSubmission(uploadId))) throw AppError.notFound();
    return { contentType: upload.contentType, content: upload.content };
  }

  async state(context: MemberSessionContext): Promise<IdentityState> {
    const latest = await this.repository.latestFor(context.member.id);
    if (!latest)
      return {
        status: 'unverified',
        documentType: null,
        idNumberMasked: null,
        realName: null,
        failReason: null,
        submittedAt: null,
      };
    return {
      status: latest.status as IdentityState['status'],
      documentType: latest.documentType as DocumentType,
      idNumberMasked: maskIdNumber(latest.idNumber),
      realName: latest.realName,
      failReason: latest.failReason,
      submittedAt: latest.submittedAt.toISOString(),
    };
  }

  /** A new submission: refused while one is pending or after approval; images must be the member's own. */
  async submit(
    context: MemberSessionContext,
    input: {
      documentType: DocumentType;
      idNumber: string;
      realName: string;
      frontImageId: string;
      backImageId: string;
      selfieImageId: string;
    },
  ): Promise<void> {
    const latest = await this.repository.latestFor(context.member.id);
    if (latest?.status === 'pending') throw AppError.conflict('identity.pending');
    if (latest?.status === 'approved') throw AppError.conflict('identity.approved');
    const images = [...new Set([input.frontImageId, input.backImageId, input.selfieImageId])];
    if (images.length !== 3 || (await this.repository.countOwnedUploads(context.member.id, images)) !== 3) {
      throw AppError.badRequest('identity.image_missing');
    }
    const inserted = await this.repository.insertSubmission({
      memberId: context.member.id,
      documentType: input.documentType,
      idNumber: input.idNumber,
      realName: input.realName,
      frontUploadId: input.frontImageId,
      backUploadId: input.backImageId,
      selfieUploadId: input.selfieImageId,
    });
    // The database allows one pending or approved submission per member; a concurrent twin loses here.
    if (!inserted) throw AppError.conflict('identity.pending');
  }

  async queue(status: 'pending' | 'approved' | 'failed', page: number, pageSize: number) {
    const { items, total } = await this.repository.listByStatus(status, pageSize, (page - 1) * pageSize);
    return { items: items.map(({ verification, email }) => toAdminItem(verification, email)), total, page, pageSize };
  }

  async review(
    operator: OperatorSession,
    id: string,
    outcome: { approve: true } | { approve: false; reason: string },
    origin: RequestOrigin,
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      const verification = await this.repository.lockForReview(id, tx);
      if (!verification) throw AppError.notFound();
      if (verification.status !== 'pending') throw AppError.conflict('identity.not_pending');
      const status = outcome.approve ? 'approved' : 'failed';
      const failReason = outcome.approve ? null : outcome.reason;
      await this.repository.review(id, { status, failReason, reviewerId: operator.operator.id }, tx);
      await this.audit.record(
        {
          operatorId: operator.operator.id,
          action: outcome.approve ? 'identity.approve' : 'identity.fail',
          targetType: 'identity_verification',
          targetId: id,
          before: { status: 'pending' },
          after: { status, failReason, memberId: verification.memberId },
          ip: origin.ip,
          requestId: origin.requestId,
        },
        tx,
      );
    });
  }
}

function toAdminItem(row: IdentityRow, email: string): AdminIdentityItem {
  return {
    id: row.id,
    memberId: row.memberId,
    email,
    documentType: row.documentType as DocumentType,
    idNumber: row.idNumber,
    realName: row.realName,
    status: row.status as AdminIdentityItem['status'],
    failReason: row.failReason,
    frontImageId: row.frontUploadId,
    backImageId: row.backUploadId,
    selfieImageId: row.selfieUploadId,
    submittedAt: row.submittedAt.toISOString(),
    reviewedAt: row.reviewedAt?.toISOString() ?? null,
  };
}
