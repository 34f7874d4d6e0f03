import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Form, Input, Modal, Select, Space, Table, Tag, Typography } from 'antd';
import { OPERATOR_ROLES, type AdminOperatorItem, type Operator, type OperatorRole } from '@custos/contract';
import { errorText } from '../../../lib/query/query-client';
import { operatorActions, roleLabel } from '../actions';
import { changeOperatorRole } from '../api/change-operator-role';
import { createOperator } from '../api/create-operator';
import { operatorKeys } from '../api/keys';
import { listOperators } from '../api/list-operators';
import { resetOperatorPassword } from '../api/reset-operator-password';
import { resetOperatorTotp } from '../api/reset-operator-totp';
import { setOperatorDisabled } from '../api/set-operator-disabled';

const ROLE_OPTIONS = OPERATOR_ROLES.map((role) => ({ value: role, label: roleLabel(role) }));

function when(value: string | null): string {
  return value ? new Date(value).toLocaleString() : '—';
}

/** Operator accounts (super admins): create, change role, disable/enable, reset password or authenticator. */
export function OperatorsScreen({ operator }: { operator: Operator }) {
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const operators = useQuery({ queryKey: operatorKeys.list, queryFn: listOperators });
  const items: AdminOperatorItem[] = operators.data ?? [];
  const load = () => void queryClient.invalidateQueries({ queryKey: operatorKeys.all });
  const [creating, setCreating] = useState(false);
  const [roleTarget, setRoleTarget] = useState<AdminOperatorItem | null>(null);
  const [role, setRole] = useState<OperatorRole>('support');
  const [createForm] = Form.useForm<{ username: string; role: OperatorRole }>();

  /** A one-time password is shown once, here, and never again. */
  const showOneTimePassword = (username: string, oneTimePassword: string) => {
    modal.info({
      title: 'One-time password',
      width: 480,
      content: (
        <Space direction="vertical">
          <Typography.Text>
            For <strong>{username}</strong>. Shown only now: hand it over safely. At the first log-in it must be replaced and an
            authenticator bound.
          </Typography.Text>
          <Typography.Paragraph copyable={{ text: oneTimePassword }} style={{ marginBottom: 0 }}>
            <code data-testid="one-time-password">{oneTimePassword}</code>
          </Typography.Paragraph>
        </Space>
      ),
    });
  };

  const confirm = (title: string, content: string, okText: string, action: () => Promise<unknown>, done?: string) => {
    modal.confirm({
      title,
      content,
      okText,
      onOk: () =>
        action().then(
          () => {
            if (done) void message.success(done);
            load();
          },
          (reason: unknown) => void message.error(errorText(reason)),
        ),
    });
  };

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Space style={{ width: '100%', justifyContent: 'space-between' }}>
        <Typography.Title level={3} style={{ margin: 0 }}>
          Operators
        </Typography.Title>
        <Button type="primary" onClick={() => setCreating(true)}>
          New operator
        </Button>
      </Space>
      {operators.isError && <Alert type="error" showIcon title={errorText(operators.error)} />}
      <Table
        rowKey="id"
        loading={operators.isFetching}
        dataSource={items}
        pagination={false}
        columns={[
          { title: 'Username', dataIndex: 'username' },
          { title: 'Role', dataIndex: 'role', render: (value: string) => roleLabel(value) },
          {
            title: 'Authenticator',
            dataIndex: 'totpBound',
            render: (bound: boolean) => <Tag color={bound ? 'green' : 'orange'}>{bound ? 'bound' : 'not bound'}</Tag>,
          },
          {
            title: 'State',
            render: (_: unknown, item) => (
              <Space size={4} wrap>
                <Tag color={item.disabled ? 'red' : 'green'}>{item.disabled ? 'disabled' : 'active'}</Tag>
                {item.mustChangePassword && <Tag color="orange">one-time password</Tag>}
              </Space>
            ),
          },
          { title: 'Created', dataIndex: 'createdAt', render: when },
          { title: 'Last log-in', dataIndex: 'lastLoginAt', render: when },
          {
            title: 'Actions',
            render: (_: unknown, item) => {
              const allowed = operatorActions(operator, item, items);
              return (
                <Space size={4} wrap>
                  {allowed.changeRole && (
                    <Button
                      size="small"
                      onClick={() => {
                        setRole(item.role);
                        setRoleTarget(item);
                      }}
                    >
                      Change role
                    </Button>
                  )}
                  {allowed.disable && (
                    <Button
                      size="small"
                      danger
                      onClick={() =>
                        confirm(
                          `Disable ${item.username}?`,
                          'Their sessions end at once and log-in is refused until the account is enabled again.',
                          'Disable',
                          () => setOperatorDisabled(item.id, true),
                          'Disabled',
                        )
                      }
                    >
                      Disable
                    </Button>
                  )}
                  {allowed.enable && (
                    <Button
                      size="small"
                      onClick={() =>
                        confirm(
                          `Enable ${item.username}?`,
                          'They can log in again.',
                          'Enable',
                          () => setOperatorDisabled(item.id, false),
                          'Enabled',
                        )
                      }
                    >
                      Enable
                    </Button>
                  )}
                  {allowed.resetPassword && (
                    <Button
                      size="small"
                      onClick={() =>
                        confirm(
                          `Reset the password of ${item.username}?`,
                          'Their sessions end. They log in with a new one-time password and must replace it.',
                          'Reset password',
                          () =>
                            resetOperatorPassword(item.id).then(({ oneTimePassword }) =>
                              showOneTimePassword(item.username, oneTimePassword),
                            ),
                        )
                      }
                    >
                      Reset password
                    </Button>
                  )}
                  {allowed.resetAuthenticator && (
                    <Button
                      size="small"
                      onClick={() =>
                        confirm(
                          `Reset the authenticator of ${item.username}?`,
                          'Their sessions end and they must bind a new authenticator at the next log-in.',
                          'Reset authenticator',
                          () => resetOperatorTotp(item.id),
                          'Authenticator reset',
                        )
                      }
                    >
                      Reset authenticator
                    </Button>
                  )}
                </Space>
              );
            },
          },
        ]}
      />
      <Modal
        title="New operator"
        open={creating}
        okText="Create"
        destroyOnHidden
        onCancel={() => setCreating(false)}
        onOk={() => {
          void createForm.validateFields().then(
            (values) =>
              createOperator({ username: values.username.trim(), role: values.role }).then(
                ({ operator: created, oneTimePassword }) => {
                  setCreating(false);
                  createForm.resetFields();
                  load();
                  showOneTimePassword(created.username, oneTimePassword);
                },
                (reason: unknown) => void message.error(errorText(reason)),
              ),
            // The form shows what is missing.
            () => undefined,
          );
        }}
      >
        <Form form={createForm} layout="vertical" initialValues={{ role: 'support' }} preserve={false}>
          <Form.Item
            label="Username"
            name="username"
            extra="3–32 characters: a–z, 0–9, dot, dash, underscore"
            rules={[
              { required: true, whitespace: true, message: 'Please enter a username' },
              { pattern: /^\s*[A-Za-z0-9][A-Za-z0-9._-]{2,31}\s*$/, message: '3–32 characters: a–z, 0–9, dot, dash, underscore' },
            ]}
          >
            <Input autoComplete="off" />
          </Form.Item>
          <Form.Item label="Role" name="role" rules={[{ required: true, message: 'Please choose a role' }]}>
            <Select options={ROLE_OPTIONS} />
          </Form.Item>
        </Form>
      </Modal>
      <Modal
        title={roleTarget ? `Role of ${roleTarget.username}` : 'Role'}
        open={roleTarget !== null}
        okText="Save role"
        okButtonProps={{ disabled: roleTarget?.role === role }}
        destroyOnHidden
        onCancel={() => setRoleTarget(null)}
        onOk={() => {
          if (!roleTarget) return;
          void changeOperatorRole(roleTarget.id, role).then(
            () => {
              setRoleTarget(null);
              void message.success('Role changed');
              load();
            },
            (reason: unknown) => void message.error(errorText(reason)),
          );
        }}
      >
        <Select aria-label="Role" options={ROLE_OPTIONS} value={role} onChange={setRole} style={{ width: '100%' }} />
      </Modal>
    </Space>
  );
}
