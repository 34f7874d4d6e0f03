import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n/translator';
import { useNavigate } from '../../../lib/router/router';
import { userKeys } from '../../../api/keys';
import { PasswordPairForm } from '../../../components/forms/PasswordPairForm';
import { showToast } from '../../../lib/toast';
import { setTradePassword } from '../api/set-trade-password';

/** update_pwd3: the first trading password (code 4900 lands here). */
export default function TradePasswordSetScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return (
    <div className="auth-screen">
      <PasswordPairForm
        header={t('tradePassword.setHint')}
        labels={{
          password: t('tradePassword.password'),
          passwordPlaceholder: t('tradePassword.passwordPlaceholder'),
          confirm: t('tradePassword.confirm'),
          confirmPlaceholder: t('auth.confirmPasswordPlaceholder'),
        }}
        submitLabel={t('auth.submit')}
        onSubmit={({ password, confirmPassword }) =>
          setTradePassword({ password, confirmPassword }).then(async () => {
            // The security centre must say "change" before the member is back on it.
            await queryClient.invalidateQueries({ queryKey: userKeys.info() });
            showToast(t('tradePassword.setDone'));
            void navigate(-1);
          })
        }
      />
    </div>
  );
}
