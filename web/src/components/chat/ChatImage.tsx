import { useEffect, useState } from 'react';
import { DotLoading, Image } from 'antd-mobile';
import { fetchPrivateImage } from '../../lib/api/image';

/** A chat image, fetched with the session's credential from `path` (never a public URL). */
export function ChatImage({ path, testId }: { path: string; testId: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    fetchPrivateImage(path).then(
      (url) => live && setSrc(url),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [path]);
  return src ? <Image src={src} width={160} fit="contain" className="chat-image" data-testid={testId} /> : <DotLoading />;
}
