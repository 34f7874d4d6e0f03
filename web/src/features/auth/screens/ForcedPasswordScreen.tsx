import { useTranslation } from '../../../lib/i18n/translator';
import { updatePasswordForced } from '../api/update-password-forced';
import { PasswordPairForm } from '../../../components/forms/PasswordPairForm';
import { HOME_ROUTE } from '../components/session';
import { relaunch } from '../../../lib/navigation';
import { showToast } from '../../../lib/toast';

/** update_pwd2: code 300 lands here: the member must choose a new login password. */
export default function ForcedPasswordScreen() {
  const { t } = useTranslation();
  return (
    <div className="auth-screen">
      <PasswordPairForm
        submitLabel={t('auth.submit')}
        onSubmit={({ password, confirmPassword }) =>
          updatePasswordForced({ password, confirmPassword }).then(() => {
            showToast(t('auth.passwordChanged'));
            relaunch(HOME_ROUTE);
          })
        }
      />
    </div>
  );
}
