import { useTranslation } from '../../../lib/i18n/translator';
import { Navigate, useLocation } from '../../../lib/router/router';
import { showToast } from '../../../lib/toast';
import { register } from '../api/register';
import { PasswordPairForm } from '../../../components/forms/PasswordPairForm';
import { startSession } from '../components/session';

interface RegisterState {
  email?: string;
  invitationCode?: string;
  code?: string;
}

/** register1: register step 3: the login password; the new member is logged in. */
export default function RegisterPasswordScreen() {
  const { t } = useTranslation();
  const { email, invitationCode, code } = (useLocation().state as RegisterState | null) ?? {};
  if (!email || !invitationCode || !code) return <Navigate to="/pages/register/register" replace />;
  return (
    <div className="auth-screen">
      <PasswordPairForm
        submitLabel={t('auth.register')}
        onSubmit={({ password, confirmPassword }) =>
          register({ email, code, invitationCode, password, confirmPassword }).then(({ token }) => {
            showToast(t('auth.registered'));
            startSession(token);
          })
        }
      />
    </div>
  );
}
