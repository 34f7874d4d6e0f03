import { useState } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Descriptions,
  Empty,
  Form,
  Input,
  Modal,
  Segmented,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import { MACHINE_STATUSES, operatorMay, type MachineProduct, type Operator } from '@custos/contract';
import { Amount } from '../../../components/Amount';
import { activateMachineProduct } from '../api/activate-machine-product';
import { createMachineProduct } from '../api/create-machine-product';
import { listMachineProducts } from '../api/list-machine-products';
import { listMemberMachines, type MemberMachineFilter } from '../api/list-member-machines';
import { retireMachineProduct } from '../api/retire-machine-product';
import { updateMachineProduct } from '../api/update-machine-product';
import { machineKeys } from '../api/keys';
import {
  EMPTY_PRODUCT_FORM,
  MACHINE_STATUS_COLOURS,
  MACHINE_STATUS_LABELS,
  PRODUCT_FIELD_LABELS,
  PRODUCT_STATUS_COLOURS,
  PRODUCT_STATUS_LABELS,
  productExample,
  productToForm,
  toProductInput,
  type AdminMachineProduct,
  type AdminMemberMachine,
  type MachineStatus,
  type ProductForm,
} from '../machines';
import { errorText } from '../../../lib/query/query-client';

/** The product being edited, or 'new'. */
type Editing = AdminMachineProduct | 'new' | null;

const PAGE_SIZE = 20;
const ALL = 'all';

function time(value: string | null): string {
  return value ? new Date(value).toLocaleString() : '—';
}

/** Data attributes for antd's button props (e2e tests find the dialogs' buttons by these). */
const testId = (id: string): { 'data-testid': string } => ({ 'data-testid': id });

function ProductModal({
  editing,
  onClose,
  onSaved,
}: {
  editing: Editing;
  onClose: () => void;
  onSaved: (product: MachineProduct) => void;
}) {
  const { message } = App.useApp();
  const [form] = Form.useForm<ProductForm>();
  const [saving, setSaving] = useState(false);
  const watched = Form.useWatch([], form) as ProductForm | undefined;
  const checked = watched ? toProductInput({ ...EMPTY_PRODUCT_FORM, ...watched }) : null;
  const example = checked && 'input' in checked ? { ...productExample(checked.input), days: checked.input.lifetimeDays } : null;
  // Mounted per opening (keyed by the screen): what it opened for stays while the dialog animates closed.
  const [target] = useState(editing);
  const product = target === 'new' ? null : target;

  const save = (values: ProductForm) => {
    const result = toProductInput({ ...EMPTY_PRODUCT_FORM, ...values });
    if ('problems' in result) {
      form.setFields(
        Object.entries(result.problems).map(([name, problem]) => ({ name: name as keyof ProductForm, errors: [problem] })),
      );
      return;
    }
    setSaving(true);
    (product ? updateMachineProduct(product.id, result.input) : createMachineProduct(result.input))
      .then(
        (saved) => {
          void message.success(product ? `Machine “${saved.name}” saved` : `Machine “${saved.name}” created`);
          onSaved(saved);
        },
        (reason: unknown) => void message.error(errorText(reason)),
      )
      .finally(() => setSaving(false));
  };

  const field = (
    name: keyof ProductForm,
    id: string,
    props: { suffix?: string; width?: number; inputMode?: 'decimal' | 'numeric' },
  ) => (
    <Form.Item
      label={PRODUCT_FIELD_LABELS[name]}
      name={name}
      rules={[{ required: true, message: `Enter the ${PRODUCT_FIELD_LABELS[name].toLowerCase()}` }]}
    >
      <Input
        inputMode={props.inputMode ?? 'decimal'}
        suffix={props.suffix}
        style={{ width: props.width ?? 200 }}
        autoComplete="off"
        data-testid={id}
      />
    </Form.Item>
  );

  return (
    <Modal
      title={product ? `Edit machine “${product.name}”` : 'New mining machine'}
      open={editing !== null}
      okText={product ? 'Save' : 'Create'}
      okButtonProps={testId('machine-product-save')}
      confirmLoading={saving}
      destroyOnHidden
      width={640}
      onCancel={onClose}
      onOk={() => form.submit()}
    >
      <Form<ProductForm>
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={product ? productToForm(product) : EMPTY_PRODUCT_FORM}
        onFinish={save}
        data-testid="machine-product-form"
      >
        {product && product.running > 0 && (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            title={`${product.running} running machine(s) keep the terms they were bought with; machines bought from now on take the new terms.`}
          />
        )}
        <Form.Item
          label={PRODUCT_FIELD_LABELS.name}
          name="name"
          rules={[{ required: true, whitespace: true, message: 'Enter a name' }]}
        >
          <Input maxLength={40} autoComplete="off" data-testid="machine-product-name" />
        </Form.Item>
        <Space size="large" wrap align="start">
          {field('hashrate', 'machine-product-hashrate', { suffix: 'T', width: 160 })}
          {field('lifetimeDays', 'machine-product-lifetime', { suffix: 'days', width: 160, inputMode: 'numeric' })}
        </Space>
        <Space size="large" wrap align="start">
          {field('priceUsdt', 'machine-product-price-usdt', { suffix: 'USDT' })}
          {field('priceTickets', 'machine-product-price-tickets', { suffix: 'tickets' })}
        </Space>
        {field('dailyOutputPerT', 'machine-product-output', { suffix: 'RAB' })}
        {example && (
          <Descriptions size="small" column={1} title="At these terms" data-testid="machine-product-example">
            <Descriptions.Item label="One machine produces">
              {example.daily} RAB a day, {example.lifetime} RAB over {example.days} days (the day&apos;s output rounded down)
            </Descriptions.Item>
          </Descriptions>
        )}
      </Form>
    </Modal>
  );
}

/** The machines on sale (and retired): create, edit, retire and put on sale again (hosting.manage, audited). */
function ProductsCard({ mayManage }: { mayManage: boolean }) {
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const productsQuery = useQuery({ queryKey: machineKeys.products, queryFn: listMachineProducts });
  const products: AdminMachineProduct[] | null = productsQuery.data ?? null;
  const error = productsQuery.isError ? errorText(productsQuery.error) : null;
  const load = () => void productsQuery.refetch();
  // A product's terms or status show on the members' machines too: the whole domain is asked again.
  const refreshMachines = () => void queryClient.invalidateQueries({ queryKey: machineKeys.all });
  const [editing, setEditing] = useState<Editing>(null);
  // A fresh form (and its initial values) each time the dialog opens; kept while it animates closed.
  const [opened, setOpened] = useState(0);
  const open = (target: AdminMachineProduct | 'new') => {
    setOpened((count) => count + 1);
    setEditing(target);
  };

  const changeStatus = (product: AdminMachineProduct, action: 'retire' | 'activate') => {
    const retiring = action === 'retire';
    modal.confirm({
      title: retiring ? `Take “${product.name}” off sale?` : `Put “${product.name}” on sale again?`,
      content: retiring
        ? `Members can no longer buy this machine. Its ${product.running} running machine(s) mine on to the end of their lifetime.`
        : 'Members can buy this machine again, at its current terms.',
      okText: retiring ? 'Retire' : 'Put on sale',
      okButtonProps: { danger: retiring, ...testId(`machine-product-${action}-confirm`) },
      onOk: () =>
        (retiring ? retireMachineProduct(product.id) : activateMachineProduct(product.id)).then(
          (saved) => {
            void message.success(retiring ? `Machine “${saved.name}” retired` : `Machine “${saved.name}” on sale again`);
            refreshMachines();
          },
          (reason: unknown) => void message.error(errorText(reason)),
        ),
    });
  };

  return (
    <Card title="Machines on sale" size="small">
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
          Members buy a machine with USDT or with tickets. It produces RAB each platform day after the day it was bought, for its
          lifetime: its hashrate times the output per T, rounded down. A bought machine keeps the terms it was bought with.
        </Typography.Paragraph>
        {!mayManage && <Alert type="info" showIcon title="Read only: your role may not change mining machines." />}
        <Space>
          {mayManage && (
            <Button type="primary" onClick={() => open('new')} data-testid="machine-product-create">
              New machine
            </Button>
          )}
          <Button onClick={load} loading={productsQuery.isFetching}>
            Refresh
          </Button>
        </Space>
        {error && <Alert type="error" showIcon title={error} />}
        <Table<AdminMachineProduct>
          rowKey="id"
          size="small"
          loading={products === null && !error}
          dataSource={products ?? []}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: <Empty description="No machines" /> }}
          onRow={(product) =>
            ({ 'data-testid': 'machine-product-row', 'data-product-id': product.id, 'data-status': product.status }) as object
          }
          columns={[
            {
              title: 'Name',
              dataIndex: 'name',
              render: (value: string) => <span data-testid="machine-product-row-name">{value}</span>,
            },
            {
              title: 'Hashrate',
              dataIndex: 'hashrate',
              align: 'right',
              render: (value: string) => <span data-testid="machine-product-row-hashrate">{value} T</span>,
            },
            {
              title: 'Price (USDT)',
              dataIndex: 'priceUsdt',
              align: 'right',
              render: (value: string) => <Amount value={value} testId="machine-product-row-price-usdt" />,
            },
            {
              title: 'Price (tickets)',
              dataIndex: 'priceTickets',
              align: 'right',
              render: (value: string) => <Amount value={value} testId="machine-product-row-price-tickets" />,
            },
            {
              title: 'Output per T a day',
              dataIndex: 'dailyOutputPerT',
              align: 'right',
              render: (value: string) => <span data-testid="machine-product-row-output">{value} RAB</span>,
            },
            {
              title: 'Daily output',
              align: 'right',
              render: (_: unknown, product) => (
                <span data-testid="machine-product-row-daily">{productExample(product).daily} RAB</span>
              ),
            },
            {
              title: 'Lifetime',
              dataIndex: 'lifetimeDays',
              align: 'right',
              render: (value: number) => <span data-testid="machine-product-row-lifetime">{value} days</span>,
            },
            {
              title: 'Status',
              dataIndex: 'status',
              render: (value: AdminMachineProduct['status']) => (
                <Tag color={PRODUCT_STATUS_COLOURS[value]} data-testid="machine-product-row-status" data-status={value}>
                  {PRODUCT_STATUS_LABELS[value]}
                </Tag>
              ),
            },
            {
              title: 'Running',
              dataIndex: 'running',
              align: 'right',
              render: (value: number) => <span data-testid="machine-product-row-running">{value}</span>,
            },
            ...(mayManage
              ? [
                  {
                    title: '',
                    key: 'actions',
                    render: (_: unknown, product: AdminMachineProduct) => (
                      <Space>
                        <Button size="small" onClick={() => open(product)} data-testid="machine-product-edit">
                          Edit
                        </Button>
                        {product.status === 'active' ? (
                          <Button
                            size="small"
                            danger
                            onClick={() => changeStatus(product, 'retire')}
                            data-testid="machine-product-retire"
                          >
                            Retire
                          </Button>
                        ) : (
                          <Button
                            size="small"
                            onClick={() => changeStatus(product, 'activate')}
                            data-testid="machine-product-activate"
                          >
                            Put on sale
                          </Button>
                        )}
                      </Space>
                    ),
                  },
                ]
              : []),
          ]}
        />
      </Space>
      <ProductModal
        key={opened}
        editing={editing}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          refreshMachines();
        }}
      />
    </Card>
  );
}

type StatusFilter = MachineStatus | typeof ALL;

/** Members' machines, newest first: by status, or one member's by e-mail. */
function MemberMachinesCard() {
  const [filter, setFilter] = useState<MemberMachineFilter>({ status: null, query: '' });
  const [page, setPage] = useState(1);
  // Each filter and page is a key of its own: an older filter's answer never fills the newer one's table.
  const machinesQuery = useQuery({
    queryKey: machineKeys.memberMachines(filter, page),
    queryFn: () => listMemberMachines(filter, page, PAGE_SIZE),
    placeholderData: keepPreviousData,
  });
  const data: { items: AdminMemberMachine[]; total: number } = machinesQuery.data ?? { items: [], total: 0 };
  const load = () => void machinesQuery.refetch();

  const change = (next: Partial<MemberMachineFilter>) => {
    setPage(1);
    setFilter((current) => ({ ...current, ...next }));
  };

  return (
    <Card title="Members' machines" size="small">
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <Space wrap>
          <Segmented<StatusFilter>
            data-testid="member-machine-status-filter"
            options={[
              { label: 'All', value: ALL },
              ...MACHINE_STATUSES.map((status) => ({ label: MACHINE_STATUS_LABELS[status], value: status })),
            ]}
            value={filter.status ?? ALL}
            onChange={(value) => change({ status: value === ALL ? null : value })}
          />
          <Input.Search
            data-testid="member-machine-search"
            placeholder="Member e-mail (exact)"
            allowClear
            enterButton="Search"
            onSearch={(value) => change({ query: value.trim() })}
            style={{ width: 360 }}
          />
          <Button onClick={load}>Refresh</Button>
        </Space>
        {machinesQuery.isError && <Alert type="error" showIcon title={errorText(machinesQuery.error)} />}
        <Table<AdminMemberMachine>
          rowKey="id"
          size="small"
          loading={machinesQuery.isFetching}
          dataSource={data.items}
          scroll={{ x: 'max-content' }}
          pagination={{ current: page, pageSize: PAGE_SIZE, total: data.total, onChange: setPage, showSizeChanger: false }}
          expandable={{
            expandedRowRender: (machine) => (
              <Descriptions column={2} size="small" bordered>
                <Descriptions.Item label="Machine id">
                  <Typography.Text copyable>{machine.id}</Typography.Text>
                </Descriptions.Item>
                <Descriptions.Item label="Account id">
                  <Typography.Text copyable>{machine.accountId}</Typography.Text>
                </Descriptions.Item>
                <Descriptions.Item label="Product id">
                  <Typography.Text copyable>{machine.productId}</Typography.Text>
                </Descriptions.Item>
                <Descriptions.Item label="Bought">{time(machine.createdAt)}</Descriptions.Item>
              </Descriptions>
            ),
          }}
          onRow={(machine) =>
            ({ 'data-testid': 'member-machine-row', 'data-machine-id': machine.id, 'data-status': machine.status }) as object
          }
          columns={[
            { title: 'Bought', dataIndex: 'createdAt', render: (value: string) => time(value) },
            {
              title: 'Member',
              dataIndex: 'memberEmail',
              render: (value: string) => <span data-testid="member-machine-member">{value}</span>,
            },
            {
              title: 'Machine',
              render: (_: unknown, machine) => (
                <Space orientation="vertical" size={0}>
                  <span data-testid="member-machine-name">{machine.name}</span>
                  <Typography.Text type="secondary">
                    {machine.hashrate} T · {machine.dailyOutput} RAB a day
                  </Typography.Text>
                </Space>
              ),
            },
            {
              title: 'Paid',
              align: 'right',
              render: (_: unknown, machine) => (
                <span data-testid="member-machine-paid">
                  <Amount value={machine.paidAmount} /> {machine.paidAsset === 'TICKET' ? 'tickets' : 'USDT'}
                </span>
              ),
            },
            {
              title: 'Dates',
              render: (_: unknown, machine) => (
                <span data-testid="member-machine-dates">
                  {machine.startDate} – {machine.endDate}
                </span>
              ),
            },
            {
              title: 'Days mined / left',
              align: 'right',
              render: (_: unknown, machine) => (
                <span data-testid="member-machine-days">
                  {machine.daysMined} / {machine.daysLeft}
                </span>
              ),
            },
            {
              title: 'Output so far (RAB)',
              dataIndex: 'outputSoFar',
              align: 'right',
              render: (value: string) => <Amount value={value} testId="member-machine-output" />,
            },
            {
              title: 'Status',
              dataIndex: 'status',
              render: (value: MachineStatus) => (
                <Tag color={MACHINE_STATUS_COLOURS[value]} data-testid="member-machine-status" data-status={value}>
                  {MACHINE_STATUS_LABELS[value]}
                </Tag>
              ),
            },
          ]}
        />
      </Space>
    </Card>
  );
}

/** Mining machines: the products members buy (hosting.manage to change them) and the machines they bought. */
export function MachinesScreen({ operator }: { operator: Operator }) {
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={3}>Mining machines</Typography.Title>
      <ProductsCard mayManage={operatorMay(operator.role, 'hosting.manage')} />
      <MemberMachinesCard />
    </Space>
  );
}
