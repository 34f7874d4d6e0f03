import { useState } from 'react';
import { Alert, Button, Card, Form, Input, Typography } from 'antd';
import type { Operator } from '@custos/contract';
import { operatorToken } from '../../../lib/api';
import { login } from '../api/login';

export function LoginScreen({ onSignedIn }: { onSignedIn: (operator: Operator) => void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <div className="center-screen">
      <Card style={{ width: 380 }}>
        <Typography.Title level={3}>Custos console</Typography.Title>
        {error && <Alert type="error" title={error} showIcon style={{ marginBottom: 16 }} data-testid="login-error" />}
        <Form
          layout="vertical"
          onFinish={(values: { username: string; password: string }) => {
            setBusy(true);
            setError(null);
            login(values.username, values.password).then(
              (result) => {
                operatorToken.set(result.token);
                onSignedIn(result.operator);
              },
              (reason: unknown) => {
                setError(reason instanceof Error ? reason.message : String(reason));
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
          <Button type="primary" htmlType="submit" block loading={busy}>
            Log in
          </Button>
        </Form>
      </Card>
    </div>
  );
}
