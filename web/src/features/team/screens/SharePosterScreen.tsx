import { useEffect, useState } from 'react';
import { Button, DotLoading } from 'antd-mobile';
import QRCode from 'qrcode';
import { useTranslation } from 'react-i18next';
import { copyText } from '../../../lib/clipboard';
import { showToast } from '../../../lib/toast';
import { getShare } from '../api/team-api';
import { downloadImage, drawPoster } from '../poster';
import { shareLinkFor } from '../team';

interface Poster {
  inviteCode: string;
  link: string;
  imageUrl: string;
}

/** share_poster: a poster with my invitation code, the register link and its QR; save the image, copy the link. */
export default function SharePosterScreen() {
  const { t } = useTranslation();
  const [poster, setPoster] = useState<Poster | null>(null);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let active = true;
    (async () => {
      const share = await getShare();
      const link = shareLinkFor(share.registerPath, window.location);
      const qrDataUrl = await QRCode.toDataURL(link, { margin: 1, width: 320 });
      const imageUrl = await drawPoster({
        title: t('app.name'),
        subtitle: t('team.posterSubtitle'),
        codeLabel: t('team.inviteCode'),
        inviteCode: share.inviteCode,
        link,
        qrDataUrl,
      });
      if (active) setPoster({ inviteCode: share.inviteCode, link, imageUrl });
    })().catch(() => {
      if (active) setFailed(true);
    });
    return () => {
      active = false;
    };
  }, [t, attempt]);

  const save = () => {
    if (!poster) return;
    try {
      downloadImage(poster.imageUrl, `invite-${poster.inviteCode}.png`);
      showToast(t('team.saved'));
    } catch {
      showToast(t('team.saveFailed'));
    }
  };

  const copy = () => {
    if (!poster) return;
    copyText(poster.link).then(
      () => showToast(t('team.copied')),
      (error: unknown) => showToast(error instanceof Error && error.message ? error.message : t('team.copyFailed')),
    );
  };

  if (!poster && failed) {
    return (
      <div className="recharge-failed" data-testid="share-failed">
        <span>{t('records.loadFailed')}</span>{' '}
        <button
          type="button"
          className="link-button"
          onClick={() => {
            setFailed(false);
            setAttempt((value) => value + 1);
          }}
        >
          {t('records.retry')}
        </button>
      </div>
    );
  }
  if (!poster) {
    return (
      <div className="page-loading">
        <DotLoading color="primary" />
      </div>
    );
  }
  return (
    <div className="share-poster-screen" data-testid="share-poster">
      <img className="share-poster-image" src={poster.imageUrl} alt={t('team.posterAlt')} data-testid="share-poster-image" />
      <div className="share-poster-code">
        {t('team.inviteCode')}: <strong data-testid="share-code">{poster.inviteCode}</strong>
      </div>
      <div className="share-poster-link" data-testid="share-link">
        {poster.link}
      </div>
      <div className="share-poster-actions">
        <Button color="primary" onClick={save} data-testid="share-save">
          {t('team.saveImage')}
        </Button>
        <Button color="primary" fill="outline" onClick={copy} data-testid="share-copy">
          {t('team.copyLink')}
        </Button>
      </div>
    </div>
  );
}
