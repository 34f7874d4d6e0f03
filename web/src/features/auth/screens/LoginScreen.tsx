import { useId, useRef, useState, type FormEvent } from 'react';
import { GlobalOutline } from 'antd-mobile-icons';
import { useTranslation } from '../../../lib/i18n/translator';
import { Link } from '../../../lib/router/router';
import { loginRequest } from '@custos/contract';
import { fieldProblem } from '../../../components/forms/field-problem';
import { currentLocale } from '../../../lib/i18n/i18n';
import { login } from '../api/login';
import { startSession } from '../components/session';

type Field = 'email' | 'password';
const FIELDS: readonly Field[] = ['email', 'password'];

/**
 * Entry page (custom navigation bar): e-mail + password, with register, forgot password, code log-in
 * and language. The first screen of a new visitor, so a plain form (decision 039): no form library,
 * each field checked by the contract's schema of the log-in call, in the server's wording, when it
 * changes and on submit, the error tied to its input and announced.
 */
export default function LoginScreen() {
  const { t } = useTranslation();
  const id = useId();
  const [values, setValues] = useState<Record<Field, string>>({ email: '', password: '' });
  // A field shows its problem once it has been typed in or the form submitted (as antd-mobile's form did).
  const [checked, setChecked] = useState<ReadonlySet<Field>>(new Set());
  const [busy, setBusy] = useState(false);
  const inputs = useRef<Partial<Record<Field, HTMLInputElement | null>>>({});

  const problem = (field: Field, value = values[field]) => fieldProblem(loginRequest.shape[field], value, field, currentLocale());
  const shown = (field: Field) => (checked.has(field) ? problem(field) : null);

  const change = (field: Field, value: string) => {
    setValues((before) => ({ ...before, [field]: value }));
    setChecked((before) => (before.has(field) ? before : new Set([...before, field])));
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setChecked(new Set(FIELDS));
    const firstWrong = FIELDS.find((field) => problem(field) !== null);
    if (firstWrong) {
      inputs.current[firstWrong]?.focus();
      return;
    }
    setBusy(true);
    login({ email: values.email.trim(), password: values.password }).then(
      ({ token }) => startSession(token),
      () => setBusy(false),
    );
  };

  const field = (name: Field, label: string, input: { placeholder: string; type: string; autoComplete: string }) => {
    const error = shown(name);
    const inputId = `${id}-${name}`;
    const errorId = `${inputId}-error`;
    return (
      <div className={error ? 'login-field login-field-invalid' : 'login-field'}>
        <label className="login-field-label" htmlFor={inputId}>
          {label}
        </label>
        <input
          ref={(element) => {
            inputs.current[name] = element;
          }}
          id={inputId}
          name={name}
          className="login-field-input"
          value={values[name]}
          onChange={(event) => change(name, event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          {...input}
        />
        {error && (
          <div id={errorId} className="login-field-error" role="alert">
            {error}
          </div>
        )}
      </div>
    );
  };

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
      <form className="login-form" noValidate onSubmit={submit}>
        <div className="login-fields">
          {field('email', t('auth.email'), { placeholder: t('auth.emailPlaceholder'), type: 'email', autoComplete: 'email' })}
          {field('password', t('auth.password'), {
            placeholder: t('auth.passwordPlaceholder'),
            type: 'password',
            autoComplete: 'current-password',
          })}
        </div>
        <div className="login-form-footer">
          <button type="submit" className="login-submit" disabled={busy} aria-busy={busy}>
            {t('auth.login')}
          </button>
        </div>
      </form>
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
