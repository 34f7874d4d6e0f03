import { Button, DotLoading } from 'antd-mobile';
import { useQuery } from '@tanstack/react-query';
import QRCode from 'qrcode';
import { useTranslation } from '../../../lib/i18n/translator';
import { copyText } from '../../../lib/clipboard';
import { showToast } from '../../../lib/toast';
import { teamKeys } from '../api/keys';
import { getShare } from '../api/team-api';
import { downloadImage, drawPoster } from '../poster';
import { shareLinkFor } from '../team';

/** share_poster: a poster with my invitation code, the register link and its QR; save the image, copy the link. */
export default function SharePosterScreen() {
  const { t, i18n } = useTranslation();
  const shareQuery = useQuery({ queryKey: teamKeys.share(), queryFn: getShare });
  const share = shareQuery.data;
  const link = share ? shareLinkFor(share.registerPath, window.location) : '';
  // Drawn in the browser from the share answer: cached per code, link and language, never fetched.
  const imageQuery = useQuery({
    queryKey: teamKeys.poster(share?.inviteCode ?? '', link, i18n.language),
    enabled: share !== undefined,
    staleTime: Infinity,
    retry: false,
    queryFn: async () => {
      const qrDataUrl = await QRCode.toDataURL(link, { margin: 1, width: 320 });
      return drawPoster({
        title: t('app.name'),
        subtitle: t('team.posterSubtitle'),
        codeLabel: t('team.inviteCode'),
        inviteCode: share?.inviteCode ?? '',
        link,
        qrDataUrl,
      });
    },
  });
  const poster = share && imageQuery.data ? { inviteCode: share.inviteCode, link, imageUrl: imageQuery.data } : null;
  const failed = shareQuery.isError || imageQuery.isError;

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
          onClick={() => void (shareQuery.isError ? shareQuery.refetch() : imageQuery.refetch())}
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
