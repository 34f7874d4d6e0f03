import { Form, Input } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PasswordPairForm } from '../../../components/forms/PasswordPairForm';
import { rules } from '../../../components/forms/rules';
import { showToast } from '../../../lib/toast';
import { updatePassword } from '../api/update-password';

/** update_pwd: change the login password (old, new, confirm); other devices are signed out. */
export default function ChangePasswordScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <div className="auth-screen">
      <PasswordPairForm
        submitLabel={t('auth.submit')}
        onSubmit={({ oldPassword = '', password, confirmPassword }) =>
          updatePassword({ oldPassword, password, confirmPassword }).then(() => {
            showToast(t('auth.passwordChanged'));
            void navigate(-1);
          })
        }
      >
        <Form.Item name="oldPassword" label={t('security.oldPassword')} rules={rules.existingPassword()}>
          <Input type="password" placeholder={t('security.oldPasswordPlaceholder')} autoComplete="current-password" />
        </Form.Item>
      </PasswordPairForm>
    </div>
  );
}
