import { useTranslation } from '../../../lib/i18n/translator';
import { useNavigate } from '../../../lib/router/router';
import { sendForgotCode } from '../api/send-forgot-code';
import { EmailForm } from '../components/EmailForm';

/** forget_pwd: step 1: the account's e-mail. */
export default function ForgotScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <div className="auth-screen">
      <EmailForm
        hint={t('auth.resetHint')}
        submitLabel={t('auth.sendCode')}
        onSubmit={(email) =>
          sendForgotCode({ email }).then(() => navigate('/pages/forget_pwd/verify_code', { state: { email } }))
        }
      />
    </div>
  );
}
