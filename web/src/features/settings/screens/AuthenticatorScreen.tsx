import { useEffect, useState } from 'react';
import { Button, Form, List, Tag } from 'antd-mobile';
import { useQueryClient } from '@tanstack/react-query';
import QRCode from 'qrcode';
import { useTranslation } from '../../../lib/i18n/translator';
import { useNavigate } from '../../../lib/router/router';
import type { AuthenticatorSetup } from '@custos/contract';
import { userKeys } from '../../../api/keys';
import { GoogleCodeField } from '../../../components/forms/GoogleCodeField';
import { showToast } from '../../../lib/toast';
import { bindAuthenticator } from '../api/bind-authenticator';
import { changeAuthenticator } from '../api/change-authenticator';
import { getAuthenticator } from '../api/get-authenticator';

/** setting4: bind Google authenticator (QR + key + code), or move it to a new device (old code + new code). */
export default function AuthenticatorScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [setup, setSetup] = useState<AuthenticatorSetup | null>(null);
  const [qr, setQr] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    getAuthenticator().then(setSetup, () => undefined);
  }, []);

  useEffect(() => {
    if (!setup) return;
    let active = true;
    void QRCode.toDataURL(setup.otpauthUrl, { margin: 1, width: 200 }).then((dataUrl) => {
      if (active) setQr(dataUrl);
    });
    return () => {
      active = false;
    };
  }, [setup]);

  if (!setup) return null;
  const finish = (message: string) => {
    // Password screens ask for a Google code only when the cached profile says one is bound.
    void queryClient.invalidateQueries({ queryKey: userKeys.info() });
    showToast(message);
    void navigate(-1);
  };

  return (
    <div className="authenticator-screen">
      {setup.bound && (
        <List>
          <List.Item extra={<Tag color="success">{t('authenticator.boundStatus')}</Tag>}>{t('routes.setting4')}</List.Item>
        </List>
      )}
      <p className="authenticator-hint">{setup.bound ? t('authenticator.changeHint') : t('authenticator.bindHint')}</p>
      <div className="authenticator-key">
        {qr && <img src={qr} alt="" width={200} height={200} />}
        <div>
          <span>{t('authenticator.key')}: </span>
          <code data-testid="authenticator-secret">{setup.secret}</code>{' '}
          <Button
            size="mini"
            fill="outline"
            onClick={() => {
              void navigator.clipboard.writeText(setup.secret).then(
                () => showToast(t('authenticator.copied')),
                (error: unknown) => showToast(String(error)),
              );
            }}
          >
            {t('authenticator.copy')}
          </Button>
        </div>
      </div>
      <Form
        layout="vertical"
        onFinish={(values: { googleCode?: string; oldGoogleCode?: string; newGoogleCode?: string }) => {
          setBusy(true);
          const done = () => setBusy(false);
          const request = setup.bound
            ? changeAuthenticator({ oldGoogleCode: values.oldGoogleCode ?? '', newGoogleCode: values.newGoogleCode ?? '' }).then(
                () => finish(t('authenticator.changed')),
              )
            : bindAuthenticator({ googleCode: values.googleCode ?? '' }).then(() => finish(t('authenticator.bound')));
          request.then(done, done);
        }}
        footer={
          <Button block type="submit" color="primary" size="large" loading={busy}>
            {setup.bound ? t('authenticator.change') : t('authenticator.bind')}
          </Button>
        }
      >
        {setup.bound ? (
          <>
            <GoogleCodeField name="oldGoogleCode" label={t('authenticator.oldCode')} />
            <GoogleCodeField name="newGoogleCode" label={t('authenticator.newCode')} />
          </>
        ) : (
          <GoogleCodeField />
        )}
      </Form>
    </div>
  );
}
