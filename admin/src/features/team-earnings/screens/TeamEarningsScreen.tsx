import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Input, InputNumber, Select, Space, Table, Tag, Typography } from 'antd';
import { TEAM_EARNING_TYPES, operatorMay, type AdminTeamEarning, type AdminTeamPromotion, type Operator } from '@custos/contract';
import { Amount } from '../../../components/Amount';
import {
  getTeamEarningsSettings,
  listTeamEarnings,
  listTeamPromotions,
  saveTeamEarningsSettings,
  type TeamEarningsFilter,
} from '../api/team-earnings-api';
import { TEAM_EARNING_LABELS, TEAM_EARNING_STATE_COLOURS, TEAM_EARNING_STATE_LABELS, dayProblem } from '../team-earnings';
import { errorText } from '../../../lib/query/query-client';
import { teamEarningsKeys } from '../api/keys';

const PAGE_SIZE = 20;

/** Promotion bonuses, newest first (once per member and level). */
function Promotions({ email }: { email: string }) {
  // The parent gives this a `key` per e-mail, so a new e-mail starts on page 1.
  const [page, setPage] = useState(1);
  const promotions = useQuery({
    queryKey: teamEarningsKeys.promotions(email, page),
    queryFn: () => listTeamPromotions(email, page, PAGE_SIZE),
    placeholderData: keepPreviousData,
  });
  if (promotions.isError) return <Alert type="error" showIcon title={errorText(promotions.error)} />;
  return (
    <Table<AdminTeamPromotion>
      rowKey={(row) => `${row.accountId}:${row.level}`}
      size="small"
      loading={promotions.isFetching}
      dataSource={promotions.data?.items ?? []}
      pagination={{
        current: page,
        pageSize: PAGE_SIZE,
        total: promotions.data?.total ?? 0,
        onChange: setPage,
        showSizeChanger: false,
      }}
      onRow={() => ({ 'data-testid': 'team-promotion-row' }) as object}
      columns={[
        { title: 'Day', dataIndex: 'day' },
        { title: 'Member', dataIndex: 'email' },
        { title: 'Nickname', dataIndex: 'nickname' },
        { title: 'Level reached', dataIndex: 'level', render: (level: number) => `V${level}` },
        {
          title: 'Bonus (USDT)',
          dataIndex: 'bonus',
          align: 'right',
          render: (value: string) => <Amount value={value} testId="team-promotion-bonus" />,
        },
      ]}
    />
  );
}

/** The arrival delay (audited; team.manage): days computed from now on arrive that many days after their own day. */
function ArrivalDelay({ mayManage }: { mayManage: boolean }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: teamEarningsKeys.settings, queryFn: getTeamEarningsSettings });
  const saved = settings.data?.arrivalDelayDays ?? null;
  // What the operator typed; until then, the saved value.
  const [typed, setValue] = useState<number | null | undefined>(undefined);
  const value = typed === undefined ? saved : typed;
  const saveDelay = useMutation({
    mutationFn: (arrivalDelayDays: number) => saveTeamEarningsSettings({ arrivalDelayDays }),
    onSuccess: (next) => {
      queryClient.setQueryData(teamEarningsKeys.settings, next);
      setValue(undefined);
      void message.success(`Team earnings now arrive ${next.arrivalDelayDays} day(s) after their day`);
    },
    onError: (failure) => void message.error(errorText(failure)),
  });
  const saving = saveDelay.isPending;
  const save = () => {
    if (value !== null) saveDelay.mutate(value);
  };
  return (
    <Card size="small" title="Arrival" data-testid="team-earnings-arrival">
      <Space wrap>
        <span>A day&apos;s earnings arrive with the settlement of the day this many days later (1: the next settlement):</span>
        <InputNumber
          data-testid="team-earnings-delay"
          min={0}
          max={30}
          precision={0}
          value={value}
          disabled={!mayManage}
          onChange={(next) => setValue(next)}
        />
        {mayManage && (
          <Button type="primary" loading={saving} disabled={value === null || value === saved} onClick={save}>
            Save
          </Button>
        )}
      </Space>
      <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
        A day already computed keeps the delay it was computed with. Saving is recorded in the audit log.
      </Typography.Paragraph>
    </Card>
  );
}

/**
 * Team earnings (docs/decisions/024-team-earnings.md): what each day's settlement computed per
 * member, day and type, to arrive or arrived (with the day it arrives), and the promotion bonus log.
 * Read-only: the figures come from the level table in force on each day (Team levels).
 */
export function TeamEarningsScreen({ operator }: { operator: Operator }) {
  const [filter, setFilter] = useState<TeamEarningsFilter>({ email: '', day: '', type: null, status: null });
  const [dayText, setDayText] = useState('');
  const [page, setPage] = useState(1);
  const earnings = useQuery({
    queryKey: teamEarningsKeys.list(filter, page),
    queryFn: () => listTeamEarnings(filter, page, PAGE_SIZE),
    placeholderData: keepPreviousData,
  });

  const change = (next: Partial<TeamEarningsFilter>) => {
    setPage(1);
    setFilter((current) => ({ ...current, ...next }));
  };
  const problem = dayProblem(dayText);

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={3}>Team earnings</Typography.Title>
      {earnings.isError && <Alert type="error" showIcon title={errorText(earnings.error)} />}
      <Typography.Paragraph type="secondary">
        Each member&apos;s direct, indirect, community performance, management, promotion and level-dividend earnings per platform
        day, computed by that day&apos;s settlement with the level table in force that day. Each arrives at a later settlement as
        one ledger entry per member, day and type.
      </Typography.Paragraph>
      <ArrivalDelay mayManage={operatorMay(operator.role, 'team.manage')} />
      <Space wrap>
        <Input.Search
          data-testid="team-earnings-email"
          placeholder="Member e-mail (exact)"
          allowClear
          enterButton="Search"
          onSearch={(value) => change({ email: value.trim() })}
          style={{ width: 320 }}
        />
        <Input
          data-testid="team-earnings-day"
          placeholder="Day (YYYY-MM-DD)"
          allowClear
          status={problem ? 'error' : undefined}
          value={dayText}
          onChange={(event) => {
            const value = event.target.value.trim();
            setDayText(value);
            if (!dayProblem(value)) change({ day: value });
          }}
          style={{ width: 180 }}
        />
        <Select
          data-testid="team-earnings-type"
          allowClear
          placeholder="Type"
          style={{ width: 200 }}
          value={filter.type ?? undefined}
          onChange={(value) => change({ type: value ?? null })}
          options={TEAM_EARNING_TYPES.map((type) => ({ value: type, label: TEAM_EARNING_LABELS[type] }))}
        />
        <Select
          data-testid="team-earnings-status"
          allowClear
          placeholder="State"
          style={{ width: 140 }}
          value={filter.status ?? undefined}
          onChange={(value) => change({ status: value ?? null })}
          options={(['to_arrive', 'arrived'] as const).map((status) => ({
            value: status,
            label: TEAM_EARNING_STATE_LABELS[status],
          }))}
        />
        <Button loading={earnings.isFetching} onClick={() => void earnings.refetch()}>
          Refresh
        </Button>
      </Space>
      {problem && <Typography.Text type="danger">{problem}</Typography.Text>}
      <Table<AdminTeamEarning>
        rowKey={(row) => `${row.accountId}:${row.day}:${row.type}`}
        size="small"
        loading={earnings.isFetching}
        dataSource={earnings.data?.items ?? []}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: earnings.data?.total ?? 0,
          onChange: setPage,
          showSizeChanger: false,
        }}
        onRow={(row) => ({ 'data-testid': 'team-earning-row', 'data-type': row.type, 'data-status': row.status }) as object}
        columns={[
          { title: 'Day', dataIndex: 'day' },
          { title: 'Member', dataIndex: 'email' },
          { title: 'Nickname', dataIndex: 'nickname' },
          { title: 'Type', dataIndex: 'type', render: (type: AdminTeamEarning['type']) => TEAM_EARNING_LABELS[type] },
          {
            title: 'Amount (USDT)',
            dataIndex: 'amount',
            align: 'right',
            render: (value: string) => <Amount value={value} testId="team-earning-amount" />,
          },
          {
            title: 'State',
            render: (_: unknown, row) => (
              <Space orientation="vertical" size={0}>
                <Tag color={TEAM_EARNING_STATE_COLOURS[row.status]} data-testid="team-earning-status">
                  {TEAM_EARNING_STATE_LABELS[row.status]}
                </Tag>
                <Typography.Text type="secondary">
                  {row.arrivedAt ? new Date(row.arrivedAt).toLocaleString() : `arrives with ${row.arriveOn}`}
                </Typography.Text>
              </Space>
            ),
          },
        ]}
      />
      <Typography.Title level={4}>Promotion bonuses</Typography.Title>
      <Promotions key={filter.email} email={filter.email} />
    </Space>
  );
}
