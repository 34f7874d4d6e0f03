import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorToken, registerMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('profile', () => {
  it('lists the platform avatars and lets a member pick one and change the nickname', async () => {
    const avatars = (await t.app.inject({ method: 'GET', url: '/api/common/avatar_list' })).json<{ data: string[] }>().data;
    expect(avatars).toHaveLength(12);
    expect(avatars[0]).toBe('avatars/a01.svg');

    const token = await registerMember(t, 'profile@example.com');
    const update = (payload: object) =>
      t.app.inject({ method: 'POST', url: '/api/user/update_profile', headers: { authorization: token, lang: 'EN' }, payload });
    expect((await update({})).json()).toMatchObject({ code: 400, message: 'please enter nickname' });
    expect((await update({ nickname: '   ' })).json()).toMatchObject({ code: 400, message: 'please enter nickname' });
    expect((await update({ nickname: 'x'.repeat(21) })).json()).toMatchObject({ code: 400, message: 'nickname: too long' });
    expect((await update({ avatar: 'https://evil.example/a.png' })).json()).toMatchObject({
      code: 400,
      message: 'This avatar is not available',
    });
    expect((await update({ nickname: ' Satoshi ', avatar: avatars[3] })).json()).toMatchObject({ code: 200 });
    const info = (await t.app.inject({ method: 'GET', url: '/api/user/info', headers: { authorization: token } })).json<{
      data: { nickname: string; avatar: string };
    }>().data;
    expect(info).toMatchObject({ nickname: 'Satoshi', avatar: avatars[3] });
  });
});

/** The smallest real PNG (1×1, transparent). */
const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

describe('uploaded avatar', () => {
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    alice = await registerMember(t, 'avatar-alice@example.com');
    bob = await registerMember(t, 'avatar-bob@example.com');
  });

  function call(method: 'GET' | 'POST', url: string, token: string, payload?: object) {
    return t.app.inject({ method, url, headers: { authorization: token, lang: 'EN' }, ...(payload ? { payload } : {}) });
  }
  function upload(token: string, bytes: Buffer, purpose = 'avatar') {
    return call('POST', '/api/upload/image', token, { purpose, contentBase64: bytes.toString('base64') });
  }
  async function uploadId(token: string, purpose = 'avatar'): Promise<string> {
    const response = await upload(token, TINY_PNG, purpose);
    expect(response.json()).toMatchObject({ code: 200 });
    return response.json<{ data: { id: string } }>().data.id;
  }
  async function avatarOf(token: string): Promise<string | null> {
    return (await call('GET', '/api/user/info', token)).json<{ data: { avatar: string | null } }>().data.avatar;
  }

  it('accepts JPEG, PNG or WebP by their bytes, up to 2 MB', async () => {
    const invalidType = { code: 400, message: 'Only JPEG, PNG or WebP images are accepted', data: null };
    // A GIF, an SVG and a text file, whatever they were called on the device.
    expect((await upload(alice, Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'))).json()).toEqual(invalidType);
    expect((await upload(alice, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).json()).toEqual(invalidType);
    expect((await upload(alice, Buffer.from('not an image at all'))).json()).toEqual(invalidType);
    const tooLarge = Buffer.concat([TINY_PNG, Buffer.alloc(2 * 1024 * 1024)]);
    expect((await upload(alice, tooLarge)).json()).toEqual({ code: 400, message: 'The image is larger than 2 MB', data: null });
    expect((await upload(alice, TINY_PNG, 'banner')).json()).toMatchObject({ code: 400, message: 'purpose: invalid value' });
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]);
    expect((await upload(alice, jpeg)).json()).toMatchObject({ code: 200 });
  });

  it('becomes the avatar as "upload:<id>", which the owner can fetch', async () => {
    const id = await uploadId(alice);
    const set = await call('POST', '/api/user/update_profile', alice, { avatar: `upload:${id}` });
    expect(set.json()).toMatchObject({ code: 200 });
    expect(await avatarOf(alice)).toBe(`upload:${id}`);
    const image = await call('GET', `/api/upload/image/${id}`, alice);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['cache-control']).toBe('private, no-store');
    expect(image.rawPayload.equals(TINY_PNG)).toBe(true);
    // Back to a platform avatar works as before.
    expect((await call('POST', '/api/user/update_profile', alice, { avatar: 'avatars/a02.svg' })).json()).toMatchObject({
      code: 200,
    });
    expect(await avatarOf(alice)).toBe('avatars/a02.svg');
  });

  it('is the owner’s alone: another member can neither fetch it nor use it', async () => {
    const id = await uploadId(alice);
    expect((await call('GET', `/api/upload/image/${id}`, bob)).statusCode).toBe(404);
    expect((await call('POST', '/api/user/update_profile', bob, { avatar: `upload:${id}` })).json()).toEqual({
      code: 400,
      message: 'This avatar is not available',
      data: null,
    });
    expect(await avatarOf(bob)).not.toBe(`upload:${id}`);
  });

  it('must be an avatar upload: not an identity document, not a made-up reference', async () => {
    const documentId = await uploadId(alice, 'identity');
    for (const avatar of [`upload:${documentId}`, 'upload:not-a-uuid', 'upload:', `upload:${documentId.toUpperCase()}x`]) {
      expect((await call('POST', '/api/user/update_profile', alice, { avatar })).json(), avatar).toMatchObject({
        code: 400,
        message: 'This avatar is not available',
      });
    }
    // And an avatar cannot stand in for a document photo.
    const avatarId = await uploadId(alice);
    const submitted = await call('POST', '/api/user/identity', alice, {
      documentType: 'passport',
      idNumber: 'E12345678',
      realName: 'Alice',
      frontImageId: avatarId,
      backImageId: documentId,
      selfieImageId: await uploadId(alice, 'identity'),
    });
    expect(submitted.json()).toMatchObject({ code: 400, message: 'Please upload the document images again' });
  });

  it('is shown to operators who may read members, and only avatars are', async () => {
    const id = await uploadId(alice);
    const documentId = await uploadId(alice, 'identity');
    const support = await operatorToken(t, 'avatar-support', 'support');
    const image = await t.app.inject({
      method: 'GET',
      url: `/api/admin/members/avatar/${id}`,
      headers: { authorization: `Bearer ${support}` },
    });
    expect(image.statusCode).toBe(200);
    expect(image.rawPayload.equals(TINY_PNG)).toBe(true);
    const document = await t.app.inject({
      method: 'GET',
      url: `/api/admin/members/avatar/${documentId}`,
      headers: { authorization: `Bearer ${support}` },
    });
    expect(document.statusCode).toBe(404);
    // A member's token is no operator's.
    const asMember = await t.app.inject({
      method: 'GET',
      url: `/api/admin/members/avatar/${id}`,
      headers: { authorization: alice },
    });
    expect(asMember.statusCode).toBe(401);
  });
});
