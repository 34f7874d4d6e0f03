import { GlobalOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { NotYetOpen } from '../../../components/NotYetOpen';

/**
 * Entry page with the spec's custom navigation bar. Member log-in arrives with the identity
 * release; until then the page says so and offers the language picker.
 */
export default function LoginScreen() {
  const { t } = useTranslation();
  return (
    <div className="login-screen">
      <header className="login-header">
        <span className="login-brand">{t('app.name')}</span>
        <Link to="/pages/login/login2" className="login-language" aria-label={t('common.language')} data-testid="login-language">
          <GlobalOutline /> {t('common.language')}
        </Link>
      </header>
      <h1 className="login-title">{t('routes.login')}</h1>
      <NotYetOpen />
    </div>
  );
}
