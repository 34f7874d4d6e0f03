import { uploadedAvatarId } from '@custos/contract';

/** Where an account's avatar comes from: a file shipped with the app, or an image the member uploaded. */
export type AvatarSource = { kind: 'platform'; src: string } | { kind: 'upload'; uploadId: string; path: string } | null;

export function avatarSource(avatar: string | null | undefined): AvatarSource {
  if (!avatar) return null;
  const uploadId = uploadedAvatarId(avatar);
  if (uploadId) return { kind: 'upload', uploadId, path: `/api/upload/image/${uploadId}` };
  return { kind: 'platform', src: `./${avatar}` };
}
