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
  InputNumber,
  Radio,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import { operatorMay, type AirdropCampaign, type AirdropPreview, type Operator } from '@custos/contract';
import { Amount } from '../../../components/Amount';
import { formatTime } from '../../../lib/dates';
import { cancelAirdrop, createAirdrop, listAirdrops, previewAirdrop } from '../api/airdrops-api';
import { airdropKeys } from '../api/keys';
import {
  AIRDROP_STATUS_COLOURS,
  AIRDROP_STATUS_LABELS,
  EMPTY_AIRDROP_FORM,
  mayCancel,
  toAirdropRequest,
  type AirdropForm,
} from '../airdrops';
import { errorText } from '../../../lib/query/query-client';

const PAGE_SIZE = 20;

/**
 * Airdrop campaigns of RAB: members chosen by level (at or above a level under the level table of the
 * campaign's day) or by a list of e-mails or member ids, previewed, then created with their recipients
 * fixed; they arrive at their time (the arrival job pays each recipient once) and may be cancelled
 * until then. Creating and cancelling need team.manage and are audited.
 */
export function AirdropsScreen({ operator }: { operator: Operator }) {
  const { message, modal } = App.useApp();
  const mayManage = operatorMay(operator.role, 'team.manage');
  const [form] = Form.useForm<AirdropForm>();
  const selection = Form.useWatch('selection', form) ?? EMPTY_AIRDROP_FORM.selection;
  const when = Form.useWatch('when', form) ?? EMPTY_AIRDROP_FORM.when;
  const [page, setPage] = useState(1);
  const queryClient = useQueryClient();
  const campaignsQuery = useQuery({
    queryKey: airdropKeys.list(page),
    queryFn: () => listAirdrops(page, PAGE_SIZE),
    placeholderData: keepPreviousData,
  });
  const campaigns: { items: AirdropCampaign[]; total: number } | null = campaignsQuery.data ?? null;
  const error = campaignsQuery.isError ? errorText(campaignsQuery.error) : null;
  // A new or cancelled campaign changes the list (and what members will receive).
  const load = () => void queryClient.invalidateQueries({ queryKey: airdropKeys.all });
  const [refusal, setRefusal] = useState<string | null>(null);
  const [preview, setPreview] = useState<AirdropPreview | null>(null);
  const [busy, setBusy] = useState<'preview' | 'create' | null>(null);

  const request = () => toAirdropRequest({ ...EMPTY_AIRDROP_FORM, ...form.getFieldsValue() });

  const runPreview = () => {
    setRefusal(null);
    setBusy('preview');
    previewAirdrop(request())
      .then(setPreview, (reason: unknown) => {
        setPreview(null);
        setRefusal(errorText(reason));
      })
      .finally(() => setBusy(null));
  };

  const create = () => {
    setRefusal(null);
    setBusy('create');
    createAirdrop(request())
      .then(
        (campaign) => {
          void message.success(`Airdrop "${campaign.name}" created: ${campaign.recipients} members, ${campaign.total} RAB`);
          form.resetFields();
          setPreview(null);
          setPage(1);
          load();
        },
        (reason: unknown) => setRefusal(errorText(reason)),
      )
      .finally(() => setBusy(null));
  };

  const cancel = (campaign: AirdropCampaign) => {
    setRefusal(null);
    modal.confirm({
      title: `Cancel the airdrop "${campaign.name}"?`,
      content: `Its ${campaign.total} RAB for ${campaign.recipients} members will not arrive. The cancel is recorded in the audit log.`,
      okText: 'Cancel airdrop',
      cancelText: 'Keep it',
      okButtonProps: { danger: true, 'data-testid': 'airdrop-cancel-confirm' },
      onOk: () =>
        cancelAirdrop(campaign.id).then(
          () => {
            void message.success(`Airdrop "${campaign.name}" cancelled`);
            load();
          },
          (reason: unknown) => {
            setRefusal(`Could not cancel "${campaign.name}": ${errorText(reason)}`);
            load();
          },
        ),
    });
  };

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={3}>Airdrops</Typography.Title>
      <Typography.Paragraph type="secondary">
        An airdrop gives each recipient the same amount of RAB from the rewards account. Recipients are members at or above a
        level on the campaign&apos;s day (that day&apos;s level table, today&apos;s figures), or a list of e-mails or member ids;
        they are fixed when the campaign is created, exactly as previewed. Members see it in their income log as &quot;to
        arrive&quot; until its time, then &quot;arrived&quot;. A campaign may be cancelled until its time comes.
      </Typography.Paragraph>
      {mayManage ? (
        <Card size="small" title="New airdrop">
          <Form<AirdropForm>
            form={form}
            layout="vertical"
            initialValues={EMPTY_AIRDROP_FORM}
            onValuesChange={() => setPreview(null)}
            onFinish={runPreview}
            data-testid="airdrop-form"
            style={{ maxWidth: 640 }}
          >
            <Form.Item name="name" label="Name" rules={[{ required: true, message: 'Enter a name' }]}>
              <Input maxLength={60} autoComplete="off" data-testid="airdrop-name" />
            </Form.Item>
            <Form.Item name="amount" label="RAB per member" rules={[{ required: true, message: 'Enter the amount' }]}>
              <Input inputMode="decimal" suffix="RAB" autoComplete="off" style={{ width: 220 }} data-testid="airdrop-amount" />
            </Form.Item>
            <Form.Item name="selection" label="Recipients">
              <Radio.Group data-testid="airdrop-selection">
                <Radio value="level" data-testid="airdrop-selection-level">
                  At or above a level
                </Radio>
                <Radio value="list" data-testid="airdrop-selection-list">
                  A list of members
                </Radio>
              </Radio.Group>
            </Form.Item>
            {selection === 'level' ? (
              <Form.Item name="minLevel" label="Lowest level (V)">
                <InputNumber min={0} max={50} precision={0} data-testid="airdrop-min-level" />
              </Form.Item>
            ) : (
              <Form.Item
                name="members"
                label="E-mails or member ids, one a line"
                rules={[{ required: true, message: 'Enter at least one member' }]}
              >
                <Input.TextArea rows={4} data-testid="airdrop-members" />
              </Form.Item>
            )}
            <Form.Item name="when" label="Arrives">
              <Radio.Group>
                <Radio value="now" data-testid="airdrop-when-now">
                  Now
                </Radio>
                <Radio value="at" data-testid="airdrop-when-at">
                  At a time
                </Radio>
              </Radio.Group>
            </Form.Item>
            {when === 'at' && (
              <Form.Item
                name="arriveAt"
                label="Arrival time (your time zone)"
                rules={[{ required: true, message: 'Choose the time' }]}
              >
                <Input type="datetime-local" style={{ width: 240 }} data-testid="airdrop-arrive-at" />
              </Form.Item>
            )}
            <Space>
              <Button htmlType="submit" loading={busy === 'preview'} data-testid="airdrop-preview">
                Preview recipients
              </Button>
              <Button
                type="primary"
                disabled={!preview || preview.recipients === 0}
                loading={busy === 'create'}
                onClick={create}
                data-testid="airdrop-create"
              >
                Create airdrop
              </Button>
            </Space>
          </Form>
          {preview && (
            <Descriptions size="small" bordered column={2} style={{ marginTop: 16 }} data-testid="airdrop-preview-result">
              <Descriptions.Item label="Platform day">{preview.day}</Descriptions.Item>
              <Descriptions.Item label="Arrives">{formatTime(preview.arriveAt)}</Descriptions.Item>
              <Descriptions.Item label="Members">
                <span data-testid="airdrop-preview-recipients">{preview.recipients}</span>
              </Descriptions.Item>
              <Descriptions.Item label="Total (RAB)">
                <Amount value={preview.total} testId="airdrop-preview-total" />
              </Descriptions.Item>
              <Descriptions.Item label="First members" span={2}>
                {preview.sample.map((member) => member.email).join(', ') || '—'}
              </Descriptions.Item>
            </Descriptions>
          )}
        </Card>
      ) : (
        <Alert type="info" showIcon title="Read only: your role may not create or cancel airdrops." />
      )}
      <Space>
        <Button onClick={load}>Refresh</Button>
      </Space>
      {error && <Alert type="error" showIcon title={error} />}
      {refusal && (
        <Alert type="error" showIcon closable onClose={() => setRefusal(null)} title={refusal} data-testid="airdrop-refusal" />
      )}
      <Table<AirdropCampaign>
        rowKey="id"
        size="small"
        loading={campaignsQuery.isFetching}
        dataSource={campaigns?.items ?? []}
        scroll={{ x: 'max-content' }}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: campaigns?.total ?? 0,
          onChange: setPage,
          showSizeChanger: false,
        }}
        locale={{ emptyText: <Empty description="No airdrop yet" /> }}
        onRow={(campaign) =>
          ({ 'data-testid': 'airdrop-row', 'data-name': campaign.name, 'data-status': campaign.status }) as object
        }
        columns={[
          { title: 'Name', dataIndex: 'name' },
          {
            title: 'Recipients',
            render: (_: unknown, campaign) => (campaign.selection === 'level' ? `V${campaign.minLevel} and above` : 'List'),
          },
          { title: 'Day', dataIndex: 'day' },
          { title: 'Arrives', dataIndex: 'arriveAt', render: (value: string) => formatTime(value) },
          {
            title: 'RAB each',
            dataIndex: 'amount',
            align: 'right',
            render: (value: string) => <Amount value={value} testId="airdrop-row-amount" />,
          },
          {
            title: 'Paid',
            align: 'right',
            render: (_: unknown, campaign) => (
              <span data-testid="airdrop-row-paid">
                {campaign.paid} / {campaign.recipients}
              </span>
            ),
          },
          {
            title: 'Total (RAB)',
            dataIndex: 'total',
            align: 'right',
            render: (value: string) => <Amount value={value} testId="airdrop-row-total" />,
          },
          {
            title: 'State',
            dataIndex: 'status',
            render: (status: AirdropCampaign['status']) => (
              <Tag color={AIRDROP_STATUS_COLOURS[status]} data-testid="airdrop-row-status" data-status={status}>
                {AIRDROP_STATUS_LABELS[status]}
              </Tag>
            ),
          },
          { title: 'By', dataIndex: 'createdBy' },
          ...(mayManage
            ? [
                {
                  title: '',
                  key: 'actions',
                  render: (_: unknown, campaign: AirdropCampaign) =>
                    mayCancel(campaign, Date.now()) && (
                      <Button size="small" danger onClick={() => cancel(campaign)} data-testid="airdrop-cancel">
                        Cancel
                      </Button>
                    ),
                },
              ]
            : []),
        ]}
      />
    </Space>
  );
}
