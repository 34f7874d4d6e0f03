import { useEffect, useState } from 'react';
import { Image, Typography } from 'antd';
import { operatorToken } from '../../../lib/api';
import { errorText } from '../../../lib/query/query-client';

/** An image behind the operator's session, as a blob URL the caller revokes. */
async function fetchImage(path: string): Promise<string> {
  const response = await fetch(`..${path}`, { headers: { authorization: `Bearer ${operatorToken.get() ?? ''}` } });
  if (!response.ok) throw new Error(`Image not available (HTTP ${response.status})`);
  return URL.createObjectURL(await response.blob());
}

/**
 * An image only an operator may see (appeal evidence, order chat images): fetched with the operator's
 * token and shown from a blob URL that lives as long as the component (an effect on purpose, decision 030).
 */
export function PrivateImage({ path, alt, testId }: { path: string; alt: string; testId: string }) {
  const [shown, setShown] = useState<{ path: string; url: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let objectUrl: string | null = null;
    let live = true;
    setError(null);
    fetchImage(path).then(
      (created) => {
        if (!live) {
          URL.revokeObjectURL(created);
          return;
        }
        objectUrl = created;
        setShown({ path, url: created });
      },
      (reason: unknown) => {
        if (live) setError(errorText(reason));
      },
    );
    return () => {
      live = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [path]);
  if (shown?.path === path) return <Image src={shown.url} width={160} alt={alt} data-testid={testId} />;
  return <Typography.Text type={error ? 'danger' : 'secondary'}>{error ?? '…'}</Typography.Text>;
}
