import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Empty, Form, Input, Space, Table, Tag, Typography } from 'antd';
import { operatorMay, type DividendPool, type Operator } from '@custos/contract';
import { Amount } from '../../../components/Amount';
import { errorText } from '../../../lib/query/query-client';
import { earningsKeys } from '../api/keys';
import { listDividendPools } from '../api/list-dividend-pools';
import { removeDividendPool } from '../api/remove-dividend-pool';
import { setDividendPool } from '../api/set-dividend-pool';
import {
  EMPTY_POOL_FORM,
  POOL_STATE_COLOURS,
  POOL_STATE_LABELS,
  mayChangePool,
  poolState,
  sortPools,
  toPoolRequest,
  type PoolForm,
} from '../earnings';

/**
 * The AI dividend: each platform day's pool (USDT), shared out by that day's settlement among the
 * day's valid members pro rata to their custody, then claimed by them. Setting a day's pool needs
 * hosting.manage (audited); a day whose settlement has run is refused. A pool not shared out yet may
 * be removed (audited).
 */
export function DividendPoolsScreen({ operator }: { operator: Operator }) {
  const { message, modal } = App.useApp();
  const mayManage = operatorMay(operator.role, 'hosting.manage');
  const [form] = Form.useForm<PoolForm>();
  const queryClient = useQueryClient();
  const poolsQuery = useQuery({ queryKey: earningsKeys.pools, queryFn: listDividendPools, select: sortPools });
  const pools: DividendPool[] | null = poolsQuery.data ?? null;
  const error = poolsQuery.isError ? errorText(poolsQuery.error) : null;
  const setPools = (rows: DividendPool[]) => queryClient.setQueryData(earningsKeys.pools, rows);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [removing, setRemoving] = useState<string | null>(null);

  const save = (values: PoolForm) => {
    const request = toPoolRequest({ ...EMPTY_POOL_FORM, ...values });
    if ('problems' in request) {
      form.setFields(
        Object.entries(request.problems).map(([name, problem]) => ({ name: name as keyof PoolForm, errors: [problem] })),
      );
      return;
    }
    setRefusal(null);
    setSaving(true);
    setDividendPool(request.day, request.amount)
      .then(
        (rows) => {
          setPools(rows);
          void message.success(`Pool of ${request.day} set to ${request.amount} USDT`);
          form.resetFields();
        },
        (reason: unknown) => setRefusal(`Could not set the pool of ${request.day}: ${errorText(reason)}`),
      )
      .finally(() => setSaving(false));
  };

  const remove = (pool: DividendPool) => {
    setRefusal(null);
    modal.confirm({
      title: `Remove the pool of ${pool.day}?`,
      content: `Its ${pool.amount} USDT will not be shared out. The removal is recorded in the audit log.`,
      okText: 'Remove',
      okButtonProps: { danger: true, 'data-testid': 'dividend-pool-remove-confirm' },
      onOk: () => {
        setRemoving(pool.day);
        return removeDividendPool(pool.day)
          .then(
            (rows) => {
              setPools(rows);
              void message.success(`Pool of ${pool.day} removed`);
            },
            (reason: unknown) => setRefusal(`Could not remove the pool of ${pool.day}: ${errorText(reason)}`),
          )
          .finally(() => setRemoving(null));
      },
    });
  };

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={3}>AI dividend</Typography.Title>
      <Typography.Paragraph type="secondary">
        Each platform day may have a pool in USDT. That day&apos;s settlement shares it out among the members valid that day
        (custody at or above the threshold) in proportion to their custody, as shares they claim in the app; the shares are paid
        from the rewards account when claimed. A pool may be set or changed until its day&apos;s settlement starts, and removed
        until it is shared out.
      </Typography.Paragraph>
      {mayManage ? (
        <Card size="small" title="Set a day's pool">
          <Form<PoolForm>
            form={form}
            layout="inline"
            initialValues={EMPTY_POOL_FORM}
            onFinish={save}
            data-testid="dividend-pool-form"
          >
            <Form.Item name="day" rules={[{ required: true, message: 'Choose the day' }]}>
              <Input type="date" aria-label="Day" style={{ width: 180 }} data-testid="dividend-pool-day" />
            </Form.Item>
            <Form.Item name="amount" rules={[{ required: true, message: 'Enter the amount' }]}>
              <Input
                inputMode="decimal"
                suffix="USDT"
                placeholder="Pool amount"
                autoComplete="off"
                style={{ width: 200 }}
                data-testid="dividend-pool-amount"
              />
            </Form.Item>
            <Form.Item>
              <Button type="primary" htmlType="submit" loading={saving} data-testid="dividend-pool-save">
                Set pool
              </Button>
            </Form.Item>
          </Form>
        </Card>
      ) : (
        <Alert type="info" showIcon title="Read only: your role may not set dividend pools." />
      )}
      <Space>
        <Button onClick={() => void poolsQuery.refetch()} loading={poolsQuery.isFetching}>
          Refresh
        </Button>
      </Space>
      {error && <Alert type="error" showIcon title={error} />}
      {refusal && (
        <Alert
          type="error"
          showIcon
          closable
          onClose={() => setRefusal(null)}
          title={refusal}
          data-testid="dividend-pool-refusal"
        />
      )}
      <Table<DividendPool>
        rowKey="day"
        size="small"
        loading={pools === null && !error}
        dataSource={pools ?? []}
        scroll={{ x: 'max-content' }}
        pagination={{ pageSize: 31, showSizeChanger: false, hideOnSinglePage: true }}
        locale={{ emptyText: <Empty description="No pool has been set yet" /> }}
        onRow={(pool) => ({ 'data-testid': 'dividend-pool-row', 'data-day': pool.day, 'data-state': poolState(pool) }) as object}
        columns={[
          { title: 'Day', dataIndex: 'day', render: (value: string) => <span data-testid="dividend-pool-row-day">{value}</span> },
          {
            title: 'Pool (USDT)',
            dataIndex: 'amount',
            align: 'right',
            render: (value: string) => <Amount value={value} testId="dividend-pool-row-amount" />,
          },
          {
            title: 'Shared out (USDT)',
            dataIndex: 'distributed',
            align: 'right',
            render: (value: string | null) =>
              value === null ? '—' : <Amount value={value} testId="dividend-pool-row-distributed" />,
          },
          {
            title: 'Members',
            dataIndex: 'members',
            align: 'right',
            render: (value: number | null) => <span data-testid="dividend-pool-row-members">{value ?? '—'}</span>,
          },
          {
            title: 'Claimed (USDT)',
            dataIndex: 'claimed',
            align: 'right',
            render: (value: string) => <Amount value={value} testId="dividend-pool-row-claimed" />,
          },
          {
            title: 'State',
            render: (_: unknown, pool) => {
              const state = poolState(pool);
              return (
                <Tag color={POOL_STATE_COLOURS[state]} data-testid="dividend-pool-row-state" data-state={state}>
                  {POOL_STATE_LABELS[state]}
                </Tag>
              );
            },
          },
          ...(mayManage
            ? [
                {
                  title: '',
                  key: 'actions',
                  render: (_: unknown, pool: DividendPool) =>
                    mayChangePool(pool) && (
                      <Space size="small">
                        <Button
                          size="small"
                          onClick={() => form.setFieldsValue({ day: pool.day, amount: pool.amount })}
                          data-testid="dividend-pool-edit"
                        >
                          Change
                        </Button>
                        <Button
                          size="small"
                          danger
                          loading={removing === pool.day}
                          onClick={() => remove(pool)}
                          data-testid="dividend-pool-remove"
                        >
                          Remove
                        </Button>
                      </Space>
                    ),
                },
              ]
            : []),
        ]}
      />
    </Space>
  );
}
