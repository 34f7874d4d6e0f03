import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Empty, Popconfirm, Space, Table, Typography } from 'antd';
import { operatorMay, type Operator, type adminOtcSuspensionSchema } from '@custos/contract';
import type { z } from 'zod';
import { formatTime } from '../../../lib/dates';
import { errorText } from '../../../lib/query/query-client';
import { liftOtcSuspension, listOtcSuspensions } from '../api/otc';
import { otcKeys } from '../api/keys';

type Suspension = z.infer<typeof adminOtcSuspensionSchema>;

/** Members barred from OTC now (by a ruling); an arbiter may lift a suspension early (audited). */
export function OtcSuspensionsScreen({ operator }: { operator: Operator }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const mayLift = operatorMay(operator.role, 'otc.arbitrate');
  const suspensions = useQuery({ queryKey: otcKeys.suspensions, queryFn: listOtcSuspensions });

  const lift = (suspension: Suspension) =>
    liftOtcSuspension(suspension.memberId).then(
      () => {
        void message.success(`${suspension.email} may trade OTC again`);
        void queryClient.invalidateQueries({ queryKey: otcKeys.all });
      },
      (reason: unknown) => void message.error(errorText(reason)),
    );

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={3}>OTC suspensions</Typography.Title>
      {suspensions.isError && <Alert type="error" showIcon title={errorText(suspensions.error)} />}
      <Table<Suspension>
        rowKey="memberId"
        size="small"
        loading={suspensions.isFetching && !suspensions.data}
        dataSource={suspensions.data?.items ?? []}
        pagination={false}
        locale={{ emptyText: <Empty description="Nobody is suspended" /> }}
        onRow={(suspension) => ({ 'data-testid': 'otc-suspension-row', 'data-email': suspension.email }) as object}
        columns={[
          {
            title: 'Member',
            render: (_: unknown, suspension) => (
              <Space orientation="vertical" size={0}>
                <span>{suspension.email}</span>
                <Typography.Text type="secondary">{suspension.nickname}</Typography.Text>
              </Space>
            ),
          },
          { title: 'Until', dataIndex: 'until', render: (value: string) => formatTime(value) },
          { title: 'Reason', dataIndex: 'reason' },
          { title: 'Order', dataIndex: 'orderNo', render: (value: string | null) => value ?? '—' },
          { title: 'Since', dataIndex: 'createdAt', render: (value: string) => formatTime(value) },
          ...(mayLift
            ? [
                {
                  title: '',
                  key: 'actions',
                  render: (_: unknown, suspension: Suspension) => (
                    <Popconfirm
                      title={`Let ${suspension.email} trade OTC again now?`}
                      okText="Lift"
                      onConfirm={() => void lift(suspension)}
                    >
                      <Button size="small" data-testid="otc-suspension-lift">
                        Lift
                      </Button>
                    </Popconfirm>
                  ),
                },
              ]
            : []),
        ]}
      />
    </Space>
  );
}
