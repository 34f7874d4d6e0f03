import { useState } from 'react';
import { Button, Form, Input } from 'antd-mobile';
import { GlobalOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { login } from '../api/login';
import { rules } from '../../../components/forms/rules';
import { startSession } from '../components/session';

/** Entry page (custom navigation bar): e-mail + password, with register, forgot password, code log-in and language. */
export default function LoginScreen() {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  return (
    <div className="login-screen">
      <header className="login-header">
        <span className="login-brand">{t('app.name')}</span>
        <Link to="/pages/login/login2" className="login-language" aria-label={t('common.language')} data-testid="login-language">
          <GlobalOutline /> {t('common.language')}
        </Link>
      </header>
      <h1 className="login-title">{t('routes.login')}</h1>
      <p className="login-hint">{t('auth.welcomeHint')}</p>
      <Form
        className="login-form"
        layout="vertical"
        onFinish={(values: { email: string; password: string }) => {
          setBusy(true);
          login({ email: values.email.trim(), password: values.password }).then(
            ({ token }) => startSession(token),
            () => setBusy(false),
          );
        }}
        footer={
          <Button block type="submit" color="primary" size="large" loading={busy}>
            {t('auth.login')}
          </Button>
        }
      >
        <Form.Item name="email" label={t('auth.email')} rules={rules.email()}>
          <Input placeholder={t('auth.emailPlaceholder')} type="email" autoComplete="email" />
        </Form.Item>
        <Form.Item name="password" label={t('auth.password')} rules={rules.existingPassword()}>
          <Input placeholder={t('auth.passwordPlaceholder')} type="password" autoComplete="current-password" />
        </Form.Item>
      </Form>
      <nav className="login-links">
        <Link to="/pages/forget_pwd/forget_pwd">{t('auth.forgotPassword')}</Link>
        <Link to="/pages/login/login1">{t('auth.codeLogin')}</Link>
      </nav>
      <p className="login-register">
        {t('auth.noAccount')} <Link to="/pages/register/register">{t('auth.register')}</Link>
      </p>
    </div>
  );
}
