import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Descriptions, Drawer, Input, Modal, Space, Table, Tabs, Tag, Typography } from 'antd';
import { operatorMay, type Operator } from '@custos/contract';
import { errorText } from '../../../lib/query/query-client';
import { getMember } from '../api/get-member';
import { memberKeys } from '../api/keys';
import { listMembers } from '../api/list-members';
import { resetMemberPassword } from '../api/reset-member-password';
import { setMemberFrozen } from '../api/set-member-frozen';
import { MemberLedger } from './MemberLedger';
import { MemberAvatar } from '../components/MemberAvatar';
import { MemberTeam } from './MemberTeam';

const PAGE_SIZE = 20;

function MemberDetail({ operator, memberId }: { operator: Operator; memberId: string }) {
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const [reason, setReason] = useState('');
  const [reasonOpen, setReasonOpen] = useState(false);
  const detailQuery = useQuery({ queryKey: memberKeys.detail(memberId), queryFn: () => getMember(memberId) });
  // A freeze or a reset changes the member in the list and in this detail.
  const refreshMembers = () => queryClient.invalidateQueries({ queryKey: memberKeys.all });
  const setFrozen = useMutation({
    mutationFn: (change: { frozen: boolean; reason: string }) => setMemberFrozen(memberId, change.frozen, change.reason),
    onSuccess: (_answer, change) => {
      setReasonOpen(false);
      setReason('');
      void message.success(change.frozen ? 'Frozen' : 'Unfrozen');
      return refreshMembers();
    },
    onError: (failure) => void message.error(errorText(failure)),
  });

  const detail = detailQuery.data;
  if (detailQuery.isError) return <Alert type="error" showIcon title={errorText(detailQuery.error)} />;
  if (!detail) return <Typography.Text type="secondary">Loading…</Typography.Text>;
  const frozen = detail.status === 'frozen';
  const profile = (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Descriptions column={1} size="small" bordered>
        <Descriptions.Item label="E-mail">{detail.email}</Descriptions.Item>
        <Descriptions.Item label="Status">
          <Tag color={frozen ? 'red' : 'green'} data-testid="member-status">
            {detail.status}
          </Tag>
          {detail.mustResetPassword && <Tag color="orange">must set a new password</Tag>}
        </Descriptions.Item>
        <Descriptions.Item label="Nickname">{detail.nickname}</Descriptions.Item>
        <Descriptions.Item label="Invitation code">{detail.inviteCode}</Descriptions.Item>
        <Descriptions.Item label="Invited by">{detail.inviterEmail ?? 'platform'}</Descriptions.Item>
        <Descriptions.Item label="Direct invitees">{detail.directInvitees}</Descriptions.Item>
        <Descriptions.Item label="Trading password">{detail.hasTradePassword ? 'set' : 'not set'}</Descriptions.Item>
        <Descriptions.Item label="Language">{detail.locale}</Descriptions.Item>
        <Descriptions.Item label="Registered">{new Date(detail.createdAt).toLocaleString()}</Descriptions.Item>
      </Descriptions>
      <Table
        size="small"
        rowKey="id"
        pagination={false}
        title={() => 'Accounts'}
        dataSource={detail.accounts}
        columns={[
          { title: 'Avatar', dataIndex: 'avatar', render: (avatar: string | null) => <MemberAvatar avatar={avatar} /> },
          { title: 'Kind', dataIndex: 'kind' },
          { title: 'Nickname', dataIndex: 'nickname' },
          { title: 'Invitation code', dataIndex: 'inviteCode' },
        ]}
      />
      <Table
        size="small"
        rowKey="id"
        pagination={false}
        title={() => `Active sessions (${detail.sessions.length})`}
        dataSource={detail.sessions}
        columns={[
          { title: 'Address', dataIndex: 'ip' },
          { title: 'Device', dataIndex: 'userAgent', ellipsis: true },
          { title: 'Last seen', dataIndex: 'lastSeenAt', render: (value: string) => new Date(value).toLocaleString() },
        ]}
      />
      <Space>
        {operatorMay(operator.role, 'members.freeze') && (
          <Button danger={!frozen} onClick={() => setReasonOpen(true)}>
            {frozen ? 'Unfreeze log-in' : 'Freeze log-in'}
          </Button>
        )}
        {operatorMay(operator.role, 'members.reset_password') && (
          <Button
            onClick={() => {
              modal.confirm({
                title: 'Reset the login password?',
                content: 'Every session ends. The member logs in with a temporary password and must choose a new one.',
                okText: 'Reset',
                onOk: () =>
                  resetMemberPassword(memberId).then(
                    ({ temporaryPassword }) => {
                      modal.info({
                        title: 'Temporary password',
                        content: (
                          <Typography.Paragraph copyable data-testid="temporary-password">
                            {temporaryPassword}
                          </Typography.Paragraph>
                        ),
                      });
                      return refreshMembers();
                    },
                    (reasonText: unknown) => void message.error(errorText(reasonText)),
                  ),
              });
            }}
          >
            Reset login password
          </Button>
        )}
      </Space>
      <Modal
        title={frozen ? 'Unfreeze log-in' : 'Freeze log-in'}
        open={reasonOpen}
        okText={frozen ? 'Unfreeze' : 'Freeze'}
        okButtonProps={{ disabled: reason.trim() === '', loading: setFrozen.isPending }}
        onCancel={() => setReasonOpen(false)}
        onOk={() => setFrozen.mutate({ frozen: !frozen, reason: reason.trim() })}
      >
        <Input.TextArea
          placeholder="Reason (kept in the audit log)"
          maxLength={140}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          data-testid="freeze-reason"
        />
      </Modal>
    </Space>
  );
  const team = { key: 'team', label: 'Team', children: <MemberTeam memberId={memberId} operator={operator} /> };
  if (!operatorMay(operator.role, 'ledger.read'))
    return <Tabs items={[{ key: 'profile', label: 'Profile', children: profile }, team]} />;
  return (
    <Tabs
      items={[
        { key: 'profile', label: 'Profile', children: profile },
        team,
        {
          key: 'ledger',
          label: 'Balances & ledger',
          children: <MemberLedger operator={operator} memberId={memberId} />,
        },
      ]}
    />
  );
}

/** Members: search, detail, freeze/unfreeze, password reset. */
export function MembersScreen({ operator }: { operator: Operator }) {
  const [query, setQuery] = useState('');
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<string | null>(null);
  const members = useQuery({
    queryKey: memberKeys.list(query, page),
    queryFn: () => listMembers(query, page, PAGE_SIZE),
    placeholderData: keepPreviousData,
  });

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={3}>Members</Typography.Title>
      <Input.Search
        placeholder="E-mail, nickname or invitation code"
        allowClear
        enterButton="Search"
        onSearch={(value) => {
          setPage(1);
          setQuery(value.trim());
        }}
        style={{ maxWidth: 480 }}
      />
      {members.isError && <Alert type="error" showIcon title={errorText(members.error)} />}
      <Table
        rowKey="id"
        loading={members.isFetching}
        dataSource={members.data?.items ?? []}
        onRow={(record) => ({ onClick: () => setSelected(record.id), style: { cursor: 'pointer' } })}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: members.data?.total ?? 0,
          onChange: setPage,
          showSizeChanger: false,
        }}
        columns={[
          { title: 'E-mail', dataIndex: 'email' },
          { title: 'Nickname', dataIndex: 'nickname' },
          { title: 'Invitation code', dataIndex: 'inviteCode' },
          { title: 'Invited by', dataIndex: 'inviterEmail', render: (value: string | null) => value ?? 'platform' },
          {
            title: 'Status',
            dataIndex: 'status',
            render: (status: string) => <Tag color={status === 'frozen' ? 'red' : 'green'}>{status}</Tag>,
          },
          { title: 'Registered', dataIndex: 'createdAt', render: (value: string) => new Date(value).toLocaleString() },
        ]}
      />
      <Drawer size={960} open={selected !== null} onClose={() => setSelected(null)} title="Member" destroyOnHidden>
        {selected && <MemberDetail operator={operator} memberId={selected} />}
      </Drawer>
    </Space>
  );
}
