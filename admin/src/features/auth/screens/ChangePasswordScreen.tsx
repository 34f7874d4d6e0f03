import { useState } from 'react';
import { Alert, Button, Card, Form, Input, Typography } from 'antd';
import { OPERATOR_PASSWORD_MIN_LENGTH, type Operator } from '@custos/contract';
import { changePassword } from '../api/change-password';

interface Values {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/** Shown until the one-time password has been replaced; the server refuses other calls until then. */
export function ChangePasswordScreen({ operator, onChanged }: { operator: Operator; onChanged: (operator: Operator) => void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <div className="center-screen">
      <Card style={{ width: 420 }}>
        <Typography.Title level={4}>Choose your password</Typography.Title>
        <Typography.Paragraph type="secondary">
          {operator.username}, replace the one-time password before using the console. At least {OPERATOR_PASSWORD_MIN_LENGTH}{' '}
          characters.
        </Typography.Paragraph>
        {error && <Alert type="error" title={error} showIcon style={{ marginBottom: 16 }} data-testid="password-error" />}
        <Form
          layout="vertical"
          onFinish={(values: Values) => {
            setBusy(true);
            setError(null);
            changePassword(values.oldPassword, values.newPassword).then(onChanged, (reason: unknown) => {
              setError(reason instanceof Error ? reason.message : String(reason));
              setBusy(false);
            });
          }}
        >
          <Form.Item
            label="Current (one-time) password"
            name="oldPassword"
            rules={[{ required: true, message: 'Please enter the current password' }]}
          >
            <Input.Password autoComplete="current-password" />
          </Form.Item>
          <Form.Item
            label="New password"
            name="newPassword"
            rules={[
              { required: true, message: 'Please enter a new password' },
              { min: OPERATOR_PASSWORD_MIN_LENGTH, message: `At least ${OPERATOR_PASSWORD_MIN_LENGTH} characters` },
            ]}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Form.Item
            label="Confirm new password"
            name="confirmPassword"
            dependencies={['newPassword']}
            rules={[
              { required: true, message: 'Please confirm the new password' },
              ({ getFieldValue }) => ({
                validator: (_rule, value) =>
                  value === getFieldValue('newPassword')
                    ? Promise.resolve()
                    : Promise.reject(new Error('The two passwords do not match')),
              }),
            ]}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={busy}>
            Save password
          </Button>
        </Form>
      </Card>
    </div>
  );
}
