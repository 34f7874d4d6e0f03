import { expect, type APIRequestContext } from '@playwright/test';
import type { UploadPurpose } from '@custos/contract';
import type { TestMember, TestOperator } from './fixtures';

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

/** Uploads an image the member's calls can refer to (`purpose` as the upload call takes it). */
export async function uploadImage(request: APIRequestContext, member: TestMember, purpose: UploadPurpose): Promise<string> {
  const uploaded = await data<{ id: string }>(
    await request.post('/api/upload/image', {
      headers: { authorization: member.token },
      data: { purpose, contentBase64: PHOTO_PNG.toString('base64') },
    }),
    'upload image',
  );
  return uploaded.id;
}

/**
 * Real-name verification the way it happens for real, through the API: the member submits a passport
 * with three photos, and a reviewing operator of the test approves that submission in the queue.
 */
export async function approveRealName(request: APIRequestContext, member: TestMember, reviewer: TestOperator): Promise<void> {
  const [frontImageId, backImageId, selfieImageId] = [
    await uploadImage(request, member, 'identity'),
    await uploadImage(request, member, 'identity'),
    await uploadImage(request, member, 'identity'),
  ];
  await data(
    await request.post('/api/user/identity', {
      headers: { authorization: member.token },
      data: { documentType: 'passport', idNumber: 'E2E12345', realName: 'E2E Trader', frontImageId, backImageId, selfieImageId },
    }),
    'submit identity',
  );
  const headers = { authorization: `Bearer ${reviewer.token}` };
  // The queue shows pending submissions oldest first: page through it to this member's.
  let id: string | undefined;
  for (let page = 1; id === undefined; page += 1) {
    const queue = await data<{ items: { id: string; email: string }[]; total: number }>(
      await request.get(`/api/admin/identity?status=pending&page=${page}&pageSize=100`, { headers }),
      'identity queue',
    );
    id = queue.items.find((item) => item.email === member.email)?.id;
    if (id === undefined && page * 100 >= queue.total) throw new Error(`No pending submission of ${member.email}`);
  }
  await data(await request.post(`/api/admin/identity/${id}/approve`, { headers, data: {} }), 'approve identity');
}
