import { useEffect, useState } from 'react';
import { Button, DotLoading, Result } from 'antd-mobile';
import QRCode from 'qrcode';
import { useTranslation } from '../../../lib/i18n/translator';
import type { AppVersion } from '@custos/contract';
import { getAppVersion } from '../../../api/get-app-version';

/** Absolute URL of the package, so the QR code works when scanned from another device. */
function absoluteUrl(url: string): string {
  return new URL(url, window.location.href).toString();
}

/** download: the Android package link and QR with the current version; open to visitors. */
export default function DownloadScreen() {
  const { t } = useTranslation();
  const [version, setVersion] = useState<AppVersion | null>(null);
  const [qrDataUrl, setQrDataUrl] = useState<string | null>(null);

  useEffect(() => {
    let active = true;
    getAppVersion().then(
      (value) => {
        if (active) setVersion(value);
      },
      () => undefined,
    );
    return () => {
      active = false;
    };
  }, []);

  useEffect(() => {
    if (!version?.package_url) return;
    let active = true;
    void QRCode.toDataURL(absoluteUrl(version.package_url), { margin: 1, width: 220 }).then((dataUrl) => {
      if (active) setQrDataUrl(dataUrl);
    });
    return () => {
      active = false;
    };
  }, [version]);

  if (!version) {
    return (
      <div className="page-loading">
        <DotLoading color="primary" />
      </div>
    );
  }
  return (
    <div className="download-screen">
      <h2 className="download-app-name">{t('app.name')}</h2>
      <p data-testid="download-version">
        {t('download.currentVersion', { version: `${version.version} (${version.version_code})` })}
      </p>
      {version.package_url ? (
        <>
          {qrDataUrl && <img className="download-qr" src={qrDataUrl} alt={t('download.scan')} width={220} height={220} />}
          <p className="download-hint">{t('download.scan')}</p>
          {version.package_size > 0 && (
            <p className="download-hint" data-testid="download-size">
              {t('download.size', { size: (version.package_size / (1024 * 1024)).toFixed(1) })}
            </p>
          )}
          {version.package_sha256 && (
            <p className="download-hint download-sha256">
              {t('download.sha256')}: <code data-testid="download-sha256">{version.package_sha256}</code>
            </p>
          )}
          <Button
            block
            color="primary"
            onClick={() => {
              window.open(absoluteUrl(version.package_url), '_blank', 'noopener');
            }}
          >
            {t('download.android')}
          </Button>
        </>
      ) : (
        <Result status="waiting" title={t('download.unavailable')} />
      )}
      {version.release_notes && (
        <section className="download-notes">
          <h3>{t('download.releaseNotes')}</h3>
          <p>{version.release_notes}</p>
        </section>
      )}
    </div>
  );
}
