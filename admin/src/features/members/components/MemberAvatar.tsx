import { useEffect, useState } from 'react';
import { uploadedAvatarId } from '@custos/contract';
import { fetchMemberAvatar } from '../api/fetch-member-avatar';

/** An account's avatar: a platform file from the member app, or one the member uploaded (fetched with the token). */
export function MemberAvatar({ avatar }: { avatar: string | null }) {
  const uploadId = uploadedAvatarId(avatar);
  const [uploaded, setUploaded] = useState<{ id: string; url: string } | null>(null);

  useEffect(() => {
    if (!uploadId) return;
    let url: string | null = null;
    let active = true;
    fetchMemberAvatar(uploadId).then(
      (objectUrl) => {
        url = objectUrl;
        if (active) setUploaded({ id: uploadId, url: objectUrl });
        else URL.revokeObjectURL(objectUrl);
      },
      () => undefined,
    );
    return () => {
      active = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [uploadId]);

  if (!avatar) return null;
  const src = uploadId ? (uploaded?.id === uploadId ? uploaded.url : undefined) : `../${avatar}`;
  if (!src) return null;
  return (
    <img
      src={src}
      alt=""
      width={32}
      height={32}
      style={{ borderRadius: '50%', objectFit: 'cover' }}
      data-testid={uploadId ? 'member-avatar-uploaded' : 'member-avatar'}
    />
  );
}
