import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Descriptions,
  Empty,
  Form,
  Input,
  Modal,
  Space,
  Switch,
  Table,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { operatorMay, type HostingPlan, type Operator } from '@custos/contract';
import { Amount } from '../../../components/Amount';
import { fractionToPercent } from '../../../lib/decimal';
import { activateHostingPlan } from '../api/activate-hosting-plan';
import { createHostingPlan } from '../api/create-hosting-plan';
import { listHostingPlans } from '../api/list-hosting-plans';
import { retireHostingPlan } from '../api/retire-hosting-plan';
import { updateHostingPlan } from '../api/update-hosting-plan';
import { hostingKeys } from '../api/keys';
import {
  EMPTY_PLAN_FORM,
  PLAN_FIELD_LABELS,
  PLAN_STATUS_COLOURS,
  PLAN_STATUS_LABELS,
  percentText,
  planExample,
  planToForm,
  toPlanInput,
  type AdminHostingPlan,
  type PlanForm,
} from '../hosting';
import { errorText } from '../../../lib/query/query-client';

type PlanRow = AdminHostingPlan;
/** The plan being edited, or 'new'. */
type Editing = PlanRow | 'new' | null;

/** Data attributes for antd's button props (e2e tests find the dialogs' buttons by these). */
const testId = (id: string): { 'data-testid': string } => ({ 'data-testid': id });

function PlanModal({
  editing,
  onClose,
  onSaved,
}: {
  editing: Editing;
  onClose: () => void;
  onSaved: (plan: HostingPlan) => void;
}) {
  const { message } = App.useApp();
  const [form] = Form.useForm<PlanForm>();
  const [saving, setSaving] = useState(false);
  const watched = Form.useWatch([], form) as PlanForm | undefined;
  const checked = watched ? toPlanInput({ ...EMPTY_PLAN_FORM, ...watched }) : null;
  const example = checked && 'input' in checked ? planExample(checked.input) : null;
  const ratePercent = fractionToPercent(watched?.dailyRate ?? '');
  const penaltyPercent = fractionToPercent(watched?.earlyPenaltyRate ?? '');
  // Mounted per opening (keyed by the screen): what it opened for stays while the dialog animates closed.
  const [target] = useState(editing);
  const plan = target === 'new' ? null : target;

  const save = (values: PlanForm) => {
    const result = toPlanInput({ ...EMPTY_PLAN_FORM, ...values });
    if ('problems' in result) {
      form.setFields(
        Object.entries(result.problems).map(([name, problem]) => ({ name: name as keyof PlanForm, errors: [problem] })),
      );
      return;
    }
    setSaving(true);
    (plan ? updateHostingPlan(plan.id, result.input) : createHostingPlan(result.input))
      .then(
        (saved) => {
          void message.success(plan ? `Plan “${saved.name}” saved` : `Plan “${saved.name}” created`);
          onSaved(saved);
        },
        (reason: unknown) => void message.error(errorText(reason)),
      )
      .finally(() => setSaving(false));
  };

  const amountInput = (id: string) => <Input inputMode="decimal" suffix="USDT" autoComplete="off" data-testid={id} />;

  return (
    <Modal
      title={plan ? `Edit plan “${plan.name}”` : 'New custody plan'}
      open={editing !== null}
      okText={plan ? 'Save' : 'Create'}
      okButtonProps={testId('hosting-plan-save')}
      confirmLoading={saving}
      destroyOnHidden
      width={640}
      onCancel={onClose}
      onOk={() => form.submit()}
    >
      <Form<PlanForm>
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={plan ? planToForm(plan) : EMPTY_PLAN_FORM}
        onFinish={save}
        data-testid="hosting-plan-form"
      >
        {plan && plan.activeOrders > 0 && (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            title={`${plan.activeOrders} running order(s) keep the terms they were made with; new deposits and renewals take the new terms.`}
          />
        )}
        <Form.Item
          label={PLAN_FIELD_LABELS.name}
          name="name"
          rules={[{ required: true, whitespace: true, message: 'Enter a name' }]}
        >
          <Input maxLength={40} autoComplete="off" data-testid="hosting-plan-name" />
        </Form.Item>
        <Space size="large" wrap align="start">
          <Form.Item
            label={PLAN_FIELD_LABELS.periodDays}
            name="periodDays"
            rules={[{ required: true, message: 'Enter the period in days' }]}
          >
            <Input
              inputMode="numeric"
              suffix="days"
              style={{ width: 160 }}
              autoComplete="off"
              data-testid="hosting-plan-period"
            />
          </Form.Item>
          <Form.Item
            label={PLAN_FIELD_LABELS.dailyRate}
            name="dailyRate"
            extra={
              <span data-testid="hosting-plan-rate-percent">
                {ratePercent === null ? 'A fraction of the principal, e.g. 0.0012' : `= ${ratePercent} % of the principal a day`}
              </span>
            }
            rules={[{ required: true, message: 'Enter the daily rate' }]}
          >
            <Input inputMode="decimal" style={{ width: 200 }} autoComplete="off" data-testid="hosting-plan-daily-rate" />
          </Form.Item>
        </Space>
        <Space size="large" wrap align="start">
          <Form.Item
            label={PLAN_FIELD_LABELS.minAmount}
            name="minAmount"
            rules={[{ required: true, message: 'Enter the minimum' }]}
          >
            {amountInput('hosting-plan-min')}
          </Form.Item>
          <Form.Item
            label={PLAN_FIELD_LABELS.maxAmount}
            name="maxAmount"
            rules={[{ required: true, message: 'Enter the maximum' }]}
          >
            {amountInput('hosting-plan-max')}
          </Form.Item>
        </Space>
        <Form.Item
          label={PLAN_FIELD_LABELS.earlyPenaltyRate}
          name="earlyPenaltyRate"
          extra={
            <span data-testid="hosting-plan-penalty-percent">
              {penaltyPercent === null
                ? 'A fraction of the principal kept on early redemption, e.g. 0.05'
                : `= ${penaltyPercent} % of the principal, rounded up`}
            </span>
          }
          rules={[{ required: true, message: 'Enter the penalty (0 for none)' }]}
        >
          <Input inputMode="decimal" style={{ width: 200 }} autoComplete="off" data-testid="hosting-plan-penalty" />
        </Form.Item>
        <Form.Item
          label={PLAN_FIELD_LABELS.autoRenewAllowed}
          name="autoRenewAllowed"
          valuePropName="checked"
          extra="Members may ask for the order to start again at its end, keeping the principal in custody."
        >
          <Switch data-testid="hosting-plan-auto-renew" />
        </Form.Item>
        {example && (
          <Descriptions size="small" column={1} title="At these terms" data-testid="hosting-plan-example">
            <Descriptions.Item label={`Depositing ${example.amount} USDT`}>
              earns {example.daily} USDT a day, {example.total} USDT over{' '}
              {checked && 'input' in checked ? checked.input.periodDays : ''} days; redeemed early, {example.penalty} USDT is kept
            </Descriptions.Item>
          </Descriptions>
        )}
      </Form>
    </Modal>
  );
}

/** Custody plans: the terms members deposit on; create, edit, retire and reopen them (hosting.manage, audited). */
export function HostingPlansScreen({ operator }: { operator: Operator }) {
  const { message, modal } = App.useApp();
  const mayManage = operatorMay(operator.role, 'hosting.manage');
  const queryClient = useQueryClient();
  const plansQuery = useQuery({ queryKey: hostingKeys.plans, queryFn: listHostingPlans });
  const plans: PlanRow[] | null = plansQuery.data ?? null;
  const error = plansQuery.isError ? errorText(plansQuery.error) : null;
  const load = () => void plansQuery.refetch();
  // A plan's terms or status change what the custody screens show: the whole domain is asked again.
  const refreshHosting = () => void queryClient.invalidateQueries({ queryKey: hostingKeys.all });
  const [editing, setEditing] = useState<Editing>(null);
  // A fresh form (and its initial values) each time the dialog opens; kept while it animates closed.
  const [opened, setOpened] = useState(0);
  const open = (target: PlanRow | 'new') => {
    setOpened((count) => count + 1);
    setEditing(target);
  };

  const changeStatus = (plan: PlanRow, action: 'retire' | 'activate') => {
    const retiring = action === 'retire';
    modal.confirm({
      title: retiring ? `Retire “${plan.name}”?` : `Reopen “${plan.name}”?`,
      content: retiring
        ? `Members can no longer deposit on this plan and no order renews on it. Its ${plan.activeOrders} running order(s) run on to their end on their own terms.`
        : 'Members can deposit on this plan again, and orders with auto-renew renew on it.',
      okText: retiring ? 'Retire' : 'Reopen',
      okButtonProps: { danger: retiring, ...testId(`hosting-plan-${action}-confirm`) },
      onOk: () =>
        (retiring ? retireHostingPlan(plan.id) : activateHostingPlan(plan.id)).then(
          (saved) => {
            void message.success(retiring ? `Plan “${saved.name}” retired` : `Plan “${saved.name}” reopened`);
            refreshHosting();
          },
          (reason: unknown) => void message.error(errorText(reason)),
        ),
    });
  };

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={3}>Custody plans</Typography.Title>
      <Typography.Paragraph type="secondary">
        The terms members deposit USDT on. Interest is paid each platform day after the start up to the end (the daily rate times
        the principal, rounded down); the principal comes back at the end, or the order renews. An order keeps the terms it was
        made with: editing or retiring a plan changes new deposits and renewals only.
      </Typography.Paragraph>
      {!mayManage && <Alert type="info" showIcon title="Read only: your role may not change custody plans." />}
      <Space>
        {mayManage && (
          <Button type="primary" onClick={() => open('new')} data-testid="hosting-plan-create">
            New plan
          </Button>
        )}
        <Button onClick={load} loading={plansQuery.isFetching}>
          Refresh
        </Button>
      </Space>
      {error && <Alert type="error" showIcon title={error} />}
      <Table<PlanRow>
        rowKey="id"
        size="small"
        loading={plans === null && !error}
        dataSource={plans ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <Empty description="No plans" /> }}
        onRow={(plan) => ({ 'data-testid': 'hosting-plan-row', 'data-plan-id': plan.id, 'data-status': plan.status }) as object}
        columns={[
          {
            title: 'Name',
            dataIndex: 'name',
            render: (value: string) => <span data-testid="hosting-plan-row-name">{value}</span>,
          },
          {
            title: 'Period',
            dataIndex: 'periodDays',
            align: 'right',
            render: (value: number) => <span data-testid="hosting-plan-row-period">{value} days</span>,
          },
          {
            title: 'Daily rate',
            dataIndex: 'dailyRate',
            align: 'right',
            render: (value: string) => (
              <Tooltip title={value}>
                <span data-testid="hosting-plan-row-rate">{percentText(value)}</span>
              </Tooltip>
            ),
          },
          {
            title: 'Min – max (USDT)',
            align: 'right',
            render: (_: unknown, plan) => (
              <span data-testid="hosting-plan-row-limits">
                <Amount value={plan.minAmount} /> – <Amount value={plan.maxAmount} />
              </span>
            ),
          },
          {
            title: 'Early penalty',
            dataIndex: 'earlyPenaltyRate',
            align: 'right',
            render: (value: string) => <span data-testid="hosting-plan-row-penalty">{percentText(value)}</span>,
          },
          {
            title: 'Auto-renew',
            dataIndex: 'autoRenewAllowed',
            render: (value: boolean) => <span data-testid="hosting-plan-row-auto-renew">{value ? 'Allowed' : 'No'}</span>,
          },
          {
            title: 'Status',
            dataIndex: 'status',
            render: (value: PlanRow['status']) => (
              <Tag color={PLAN_STATUS_COLOURS[value]} data-testid="hosting-plan-row-status" data-status={value}>
                {PLAN_STATUS_LABELS[value]}
              </Tag>
            ),
          },
          {
            title: 'Active orders',
            dataIndex: 'activeOrders',
            align: 'right',
            render: (value: number) => <span data-testid="hosting-plan-row-orders">{value}</span>,
          },
          ...(mayManage
            ? [
                {
                  title: '',
                  key: 'actions',
                  render: (_: unknown, plan: PlanRow) => (
                    <Space>
                      <Button size="small" onClick={() => open(plan)} data-testid="hosting-plan-edit">
                        Edit
                      </Button>
                      {plan.status === 'active' ? (
                        <Button
                          size="small"
                          danger
                          onClick={() => changeStatus(plan, 'retire')}
                          data-testid="hosting-plan-retire"
                        >
                          Retire
                        </Button>
                      ) : (
                        <Button size="small" onClick={() => changeStatus(plan, 'activate')} data-testid="hosting-plan-activate">
                          Reopen
                        </Button>
                      )}
                    </Space>
                  ),
                },
              ]
            : []),
        ]}
      />
      <PlanModal
        key={opened}
        editing={editing}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          refreshHosting();
        }}
      />
    </Space>
  );
}
