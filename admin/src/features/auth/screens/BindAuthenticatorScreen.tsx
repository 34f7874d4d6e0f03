import { useEffect, useState } from 'react';
import { Alert, Button, Card, Form, Input, Space, Spin, Typography } from 'antd';
import QRCode from 'qrcode';
import type { Operator, OperatorTotpSetup } from '@custos/contract';
import { bindTotp } from '../api/bind-totp';
import { setupTotp } from '../api/setup-totp';
import { errorText } from '../../../lib/query/query-client';

/**
 * Shown after the one-time password is replaced and until an authenticator is bound (the server
 * refuses every other console call until then): scan the QR code or type the key, then a code.
 */
export function BindAuthenticatorScreen({
  operator,
  onBound,
  onSignOut,
}: {
  operator: Operator;
  onBound: (operator: Operator) => void;
  onSignOut: () => void;
}) {
  const [setup, setSetup] = useState<OperatorTotpSetup | null>(null);
  const [qr, setQr] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    setupTotp().then(setSetup, (reason: unknown) => setError(errorText(reason)));
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

  return (
    <div className="center-screen">
      <Card style={{ width: 460 }}>
        <Typography.Title level={4}>Bind an authenticator</Typography.Title>
        <Typography.Paragraph type="secondary">
          {operator.username}, every console log-in needs a code from an authenticator app (Google Authenticator or any RFC 6238
          app). Scan the QR code or type the key, then enter the 6-digit code the app shows.
        </Typography.Paragraph>
        {error && <Alert type="error" title={error} showIcon style={{ marginBottom: 16 }} data-testid="totp-error" />}
        {!setup ? (
          !error && <Spin />
        ) : (
          <Space direction="vertical" size="middle" style={{ width: '100%' }}>
            <div className="totp-qr">
              {qr && <img src={qr} alt="QR code of the authenticator key" width={200} height={200} />}
            </div>
            <Typography.Text>
              Key: <code data-testid="totp-secret">{setup.secret}</code>{' '}
              <Typography.Text copyable={{ text: setup.secret, tooltips: ['Copy key', 'Copied'] }} />
            </Typography.Text>
            <Form
              layout="vertical"
              onFinish={(values: { googleCode: string }) => {
                setBusy(true);
                setError(null);
                bindTotp(values.googleCode.replace(/\s+/g, '')).then(onBound, (reason: unknown) => {
                  setError(errorText(reason));
                  setBusy(false);
                });
              }}
            >
              <Form.Item
                label="Code from the app"
                name="googleCode"
                rules={[
                  { required: true, message: 'Please enter the 6-digit code' },
                  { pattern: /^\s*\d{3}\s?\d{3}\s*$/, message: 'Please enter the 6-digit code' },
                ]}
              >
                <Input autoComplete="one-time-code" inputMode="numeric" maxLength={7} />
              </Form.Item>
              <Button type="primary" htmlType="submit" block loading={busy}>
                Bind authenticator
              </Button>
            </Form>
          </Space>
        )}
        <Button type="link" onClick={onSignOut} style={{ marginTop: 8, paddingLeft: 0 }}>
          Log out
        </Button>
      </Card>
    </div>
  );
}
