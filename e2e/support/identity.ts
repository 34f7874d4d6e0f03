import { expect, type APIRequestContext } from '@playwright/test';
import type { TestMember } from './fixtures';
import { ownAddress } from './members';

/** A real 1×1 PNG, as a phone camera's file would be uploaded. */
export const PHOTO_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

async function data<T>(response: Awaited<ReturnType<APIRequestContext['post']>>, what: string): Promise<T> {
  const envelope = (await response.json()) as { code: number; message: string; data: T };
  expect(envelope.code, `${what}: ${envelope.message}`).toBe(200);
  return envelope.data;
}

/**
 * Real-name verification done the way it happens for real: the member uploads the three document
 * images and submits them, and the global setup's super admin approves the submission in the review
 * queue (the screens themselves are tested in console.spec).
 */
export async function approveRealName(request: APIRequestContext, member: TestMember, realName: string): Promise<void> {
  const headers = { authorization: member.token, ...ownAddress() };
  const upload = async () =>
    (
      await data<{ id: string }>(
        await request.post('/api/upload/image', {
          headers,
          data: { purpose: 'identity', contentBase64: PHOTO_PNG.toString('base64') },
        }),
        'upload identity image',
      )
    ).id;
  const [frontImageId, backImageId, selfieImageId] = [await upload(), await upload(), await upload()];
  const idNumber = `E${Array.from(crypto.getRandomValues(new Uint8Array(4)), (byte) => byte.toString(10).padStart(3, '0')).join('')}`;
  await data(
    await request.post('/api/user/identity', {
      headers,
      data: { documentType: 'passport', idNumber, realName, frontImageId, backImageId, selfieImageId },
    }),
    'submit identity',
  );

  const admin = process.env.E2E_ADMIN_TOKEN;
  if (!admin) throw new Error('E2E_ADMIN_TOKEN is not set (global setup did not run)');
  const adminHeaders = { authorization: `Bearer ${admin}`, ...ownAddress() };
  let submission: { id: string } | undefined;
  for (let page = 1; !submission; page += 1) {
    const queue = await data<{ items: { id: string; email: string }[]; total: number }>(
      await request.get(`/api/admin/identity?status=pending&page=${page}&pageSize=100`, { headers: adminHeaders }),
      'identity queue',
    );
    submission = queue.items.find((item) => item.email === member.email);
    if (!submission && page * 100 >= queue.total) throw new Error(`no pending identity submission for ${member.email}`);
  }
  await data(
    await request.post(`/api/admin/identity/${submission.id}/approve`, { headers: adminHeaders, data: {} }),
    'approve identity',
  );
}
