import { Button, Dialog } from 'antd-mobile';
import { useTranslation } from '../../../lib/i18n/translator';
import { credential } from '../../../lib/auth/credential';
import { relaunch } from '../../../lib/navigation';
import { showToast } from '../../../lib/toast';
import { logout } from '../api/logout';

/** Ends this device's session after a confirmation and returns to log-in. */
export function LogoutButton() {
  const { t } = useTranslation();
  return (
    <div className="settings-logout">
      <Button
        block
        color="danger"
        fill="outline"
        data-testid="logout"
        onClick={() => {
          void Dialog.confirm({
            content: t('settings.logoutConfirm'),
            confirmText: t('common.confirm'),
            cancelText: t('common.cancel'),
          }).then((confirmed) => {
            if (!confirmed) return;
            // Forget the session here even if the server cannot be told (it expires there on its own).
            void logout()
              .catch(() => undefined)
              .finally(() => {
                credential.clear();
                showToast(t('settings.loggedOut'));
                relaunch('/pages/login/login');
              });
          });
        }}
      >
        {t('settings.logout')}
      </Button>
    </div>
  );
}
