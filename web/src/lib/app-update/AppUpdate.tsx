import { useEffect, useState } from 'react';
import { useTranslation } from '../i18n/translator';
import { showToast } from '../toast';
import { checkForUpdate, reportHealthy, setUpdateUi } from './update-controller';

/** antd-mobile's dialog is fetched when there is something to ask, not with the first screen (decision 039). */
const dialog = () => import('antd-mobile/es/components/dialog').then((module) => module.default);

/**
 * The update prompt everywhere (spec §4, §8): on start it reports the running bundle healthy and
 * checks for a newer version; the flow's dialogs, progress (in MB) and messages are shown here.
 */
export function AppUpdate() {
  const { t } = useTranslation();
  const [progress, setProgress] = useState<{ received: string; total: string } | null>(null);

  useEffect(() => {
    setUpdateUi({
      confirm: async () =>
        (await dialog()).confirm({
          title: t('appUpdate.title'),
          content: t('appUpdate.newVersion'),
          confirmText: t('appUpdate.updateNow'),
          cancelText: t('appUpdate.later'),
        }),
      progress: (received, total) => setProgress({ received, total }),
      finished: () => setProgress(null),
      failed: (reason) =>
        showToast(
          t(
            reason === 'download'
              ? 'appUpdate.downloadFailed'
              : reason === 'install'
                ? 'appUpdate.installFailed'
                : 'appUpdate.storeOnly',
          ),
        ),
      restartPrompt: async (kind) => {
        if (kind === 'message') {
          showToast(t('appUpdate.appliedOnRestart'));
          return false;
        }
        await (
          await dialog()
        ).alert({
          title: t('appUpdate.restartTitle'),
          content: t('appUpdate.restartMessage'),
          confirmText: t('appUpdate.restart'),
        });
        return true;
      },
    });
    return () => setUpdateUi(null);
  }, [t]);

  useEffect(() => {
    // The app got this far: the bundle is healthy. Then the start-up check (its failures are the client's toasts).
    void reportHealthy()
      .catch(() => undefined)
      .then(() => checkForUpdate())
      .catch(() => undefined);
  }, []);

  if (!progress) return null;
  return (
    <div className="app-update-progress" role="status" data-testid="update-progress">
      {t('appUpdate.downloading', { received: progress.received, total: progress.total })}
    </div>
  );
}
