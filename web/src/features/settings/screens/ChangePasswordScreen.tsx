import { Form, Input } from 'antd-mobile';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n/translator';
import { useNavigate } from '../../../lib/router/router';
import { getUserInfo } from '../../../api/get-user-info';
import { userKeys } from '../../../api/keys';
import { GoogleCodeField } from '../../../components/forms/GoogleCodeField';
import { PasswordPairForm } from '../../../components/forms/PasswordPairForm';
import { rules } from '../../../components/forms/rules';
import { showToast } from '../../../lib/toast';
import { updatePassword } from '../api/update-password';

/** update_pwd: change the login password (old, new, confirm); other devices are signed out. */
export default function ChangePasswordScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const needsGoogleCode = useQuery({ queryKey: userKeys.info(), queryFn: getUserInfo }).data?.hasAuthenticator ?? false;
  return (
    <div className="auth-screen">
      <PasswordPairForm
        submitLabel={t('auth.submit')}
        onSubmit={({ oldPassword = '', password, confirmPassword, googleCode }) =>
          updatePassword({ oldPassword, password, confirmPassword, ...(googleCode ? { googleCode } : {}) }).then(() => {
            showToast(t('auth.passwordChanged'));
            void navigate(-1);
          })
        }
      >
        <Form.Item name="oldPassword" label={t('security.oldPassword')} rules={rules.existingPassword()}>
          <Input type="password" placeholder={t('security.oldPasswordPlaceholder')} autoComplete="current-password" />
        </Form.Item>
        {needsGoogleCode && <GoogleCodeField />}
      </PasswordPairForm>
    </div>
  );
}
