import { useEffect, useState } from 'react';
import { List } from 'antd-mobile';
import { useTranslation } from '../../../lib/i18n/translator';
import { useNavigate } from '../../../lib/router/router';
import { APP_VERSION, APP_VERSION_CODE, type AppVersion, type CommonConfig } from '@custos/contract';
import { getAppVersion } from '../../../api/get-app-version';
import { getConfig } from '../../../api/get-config';
import { showToast } from '../../../lib/toast';
import { DocumentLinks } from '../../../components/content/DocumentLinks';
import { checkForUpdate, runningHotVersion } from '../../../lib/app-update/update-controller';
import { LogoutButton } from '../components/LogoutButton';

/** setting5: version, update check, community links, log-out. */
export default function AboutScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [config, setConfig] = useState<CommonConfig | null>(null);
  const [checking, setChecking] = useState(false);
  const [hotVersion, setHotVersion] = useState<string | null>(null);

  useEffect(() => {
    getConfig().then(setConfig, () => undefined);
    runningHotVersion().then(setHotVersion, () => undefined);
  }, []);

  /** A plain browser has no native update layer: a newer Android package is shown on the download page. */
  const checkInBrowser = () =>
    getAppVersion().then(
      (latest: AppVersion) => {
        if (latest.version_code > APP_VERSION_CODE) {
          showToast(t('about.newVersion', { version: latest.version }));
          void navigate('/pages/download/download');
        } else {
          showToast(t('about.upToDate'));
        }
      },
      () => undefined,
    );

  const open = (url: string) => {
    if (url) window.open(url, '_blank', 'noopener');
    else showToast(t('about.notAvailable'));
  };

  return (
    <div className="about-screen">
      <div className="about-brand">
        <img src="./favicon.svg" alt="" width={64} height={64} />
        <h2>{config?.siteName ?? t('app.name')}</h2>
      </div>
      <List>
        <List.Item extra={`${APP_VERSION} (${APP_VERSION_CODE})`}>{t('about.version')}</List.Item>
        {hotVersion && (
          <List.Item>
            <span data-testid="hot-version">{t('appUpdate.hotVersion', { version: hotVersion })}</span>
          </List.Item>
        )}
        <List.Item
          onClick={() => {
            setChecking(true);
            checkForUpdate()
              .then(async (outcome) => {
                if (outcome === null) await checkInBrowser();
                else if (outcome === 'up_to_date') showToast(t('about.upToDate'));
              })
              .catch(() => undefined)
              .finally(() => setChecking(false));
          }}
          extra={checking ? '…' : undefined}
        >
          {t('about.checkUpdate')}
        </List.Item>
      </List>
      <DocumentLinks />
      <List header={t('about.community')}>
        <List.Item onClick={() => open(config?.communityLinks.international ?? '')}>{t('about.international')}</List.Item>
        <List.Item onClick={() => open(config?.communityLinks.asiaPacific ?? '')}>{t('about.asiaPacific')}</List.Item>
      </List>
      <LogoutButton />
    </div>
  );
}
