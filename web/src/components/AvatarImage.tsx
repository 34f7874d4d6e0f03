import { useEffect, useState } from 'react';
import { fetchPrivateImage } from '../lib/api/image';
import { avatarSource } from '../lib/avatar';

/** An account's avatar: a platform file as it is, an uploaded one fetched with the member's credential. */
export function AvatarImage({ avatar, size, alt = '' }: { avatar: string | null; size: number; alt?: string }) {
  const source = avatarSource(avatar);
  const uploadPath = source?.kind === 'upload' ? source.path : null;
  const [uploaded, setUploaded] = useState<{ path: string; url: string } | null>(null);

  useEffect(() => {
    if (!uploadPath) return;
    let active = true;
    fetchPrivateImage(uploadPath).then(
      (url) => {
        if (active) setUploaded({ path: uploadPath, url });
      },
      () => undefined,
    );
    return () => {
      active = false;
    };
  }, [uploadPath]);

  if (!source) return null;
  const src = source.kind === 'platform' ? source.src : uploaded?.path === source.path ? uploaded.url : undefined;
  if (!src) return <span className="avatar-placeholder" style={{ width: size, height: size }} />;
  return <img src={src} alt={alt} width={size} height={size} className="avatar-image" />;
}
