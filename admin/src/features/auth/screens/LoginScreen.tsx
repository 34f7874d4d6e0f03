import { useState } from 'react';
import { Alert, Button, Card, Form, Input, Typography } from 'antd';
import type { Operator } from '@custos/contract';
import { ConsoleApiError, operatorToken } from '../../../lib/api';
import { login } from '../api/login';
import { INITIAL_LOGIN_STATE, afterLoginFailure, codeToSend, type LoginFormState } from '../login-flow';

interface Values {
  username: string;
  password: string;
  googleCode?: string;
}

/** Username and password; once the server asks for it (4010), the 6-digit code from the authenticator too. */
export function LoginScreen({ onSignedIn }: { onSignedIn: (operator: Operator) => void }) {
  const [state, setState] = useState<LoginFormState>(INITIAL_LOGIN_STATE);
  const [busy, setBusy] = useState(false);
  return (
    <div className="center-screen">
      <Card style={{ width: 380 }}>
        <Typography.Title level={3}>Custos console</Typography.Title>
        {state.error && (
          <Alert type="error" title={state.error} showIcon style={{ marginBottom: 16 }} data-testid="login-error" />
        )}
        {state.notice && (
          <Alert type="info" title={state.notice} showIcon style={{ marginBottom: 16 }} data-testid="login-notice" />
        )}
        <Form
          layout="vertical"
          onFinish={(values: Values) => {
            setBusy(true);
            setState((current) => ({ ...current, error: null }));
            login(values.username, values.password, codeToSend(state, values.googleCode)).then(
              (result) => {
                operatorToken.set(result.token);
                onSignedIn(result.operator);
              },
              (reason: unknown) => {
                const failure =
                  reason instanceof ConsoleApiError
                    ? { code: reason.code, message: reason.message }
                    : { code: null, message: reason instanceof Error ? reason.message : String(reason) };
                setState((current) => afterLoginFailure(current, failure));
                setBusy(false);
              },
            );
          }}
        >
          <Form.Item label="Username" name="username" rules={[{ required: true, message: 'Please enter the username' }]}>
            <Input autoComplete="username" autoFocus />
          </Form.Item>
          <Form.Item label="Password" name="password" rules={[{ required: true, message: 'Please enter the password' }]}>
            <Input.Password autoComplete="current-password" />
          </Form.Item>
          {state.needCode && (
            <Form.Item
              label="Authenticator code"
              name="googleCode"
              rules={[
                { required: true, message: 'Please enter the 6-digit code' },
                { pattern: /^\s*\d{3}\s?\d{3}\s*$/, message: 'Please enter the 6-digit code' },
              ]}
            >
              <Input autoComplete="one-time-code" inputMode="numeric" maxLength={7} autoFocus />
            </Form.Item>
          )}
          <Button type="primary" htmlType="submit" block loading={busy}>
            Log in
          </Button>
        </Form>
      </Card>
    </div>
  );
}
