import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Checkbox,
  Col,
  Descriptions,
  Empty,
  Form,
  Input,
  InputNumber,
  Popconfirm,
  Row,
  Space,
  Switch,
  Table,
  Tag,
  Typography,
} from 'antd';
import { operatorMay, type Holiday, type HotWallet, type Operator, type WithdrawSettings } from '@custos/contract';
import { fractionToPercent } from '../../../lib/decimal';
import { addHoliday } from '../api/add-holiday';
import { deleteHoliday } from '../api/delete-holiday';
import { getWithdrawSettings } from '../api/get-withdraw-settings';
import { listHolidays } from '../api/list-holidays';
import { listHotWallets } from '../api/list-hot-wallets';
import { updateWithdrawSettings } from '../api/update-withdraw-settings';
import { withdrawalKeys } from '../api/keys';
import {
  HOLIDAY_NOTE_MAX_LENGTH,
  NATIVE_ASSET,
  SETTINGS_LABELS,
  WEEKDAYS,
  addressUrl,
  feePreview,
  isIsoDate,
  settingsChanges,
  sortHolidays,
  toWithdrawSettings,
  type SettingsForm,
} from '../withdrawals';
import { errorText } from '../../../lib/query/query-client';

const PREVIEW_AMOUNTS = ['100', '1000'];

function SettingsCard({ mayEdit }: { mayEdit: boolean }) {
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  // An edit form: a window focus must not overwrite what the operator is typing.
  const settingsQuery = useQuery({
    queryKey: withdrawalKeys.settings,
    queryFn: getWithdrawSettings,
    refetchOnWindowFocus: false,
  });
  const saved = settingsQuery.data ?? null;
  const error = settingsQuery.isError ? errorText(settingsQuery.error) : null;
  const [form] = Form.useForm<SettingsForm>();
  const [saving, setSaving] = useState(false);
  const watched = Form.useWatch([], form) as SettingsForm | undefined;
  const checked = watched ? toWithdrawSettings(watched) : null;
  const preview = checked && 'settings' in checked ? checked.settings : null;
  const feePercent = fractionToPercent(watched?.feeRate ?? '');

  // The form shows what is stored whenever a fresh copy arrives (first load, after a save or a discard).
  useEffect(() => {
    if (saved) form.setFieldsValue(saved);
  }, [saved, form]);

  /** Puts the stored copy back into the form and asks the server again (a newer copy replaces it). */
  const discard = () => {
    if (saved) form.setFieldsValue(saved);
    void settingsQuery.refetch();
  };

  const save = (values: SettingsForm) => {
    const result = toWithdrawSettings(values);
    if ('problem' in result) {
      void message.error(result.problem);
      return;
    }
    if (!saved) return;
    const next = result.settings;
    const changes = settingsChanges(saved, next);
    if (changes.length === 0) {
      void message.info('Nothing changed');
      return;
    }
    modal.confirm({
      title: 'Save the withdrawal settings?',
      content: (
        <Space orientation="vertical" data-testid="withdraw-settings-changes">
          {changes.map((change) => (
            <Typography.Text key={change.label}>
              {change.label}: {change.before} → <Typography.Text strong>{change.after}</Typography.Text>
            </Typography.Text>
          ))}
          <Typography.Text type="secondary">
            Members see the change at once; requests already made keep their fee and are reviewed as they are.
          </Typography.Text>
        </Space>
      ),
      okText: 'Save',
      onOk: () => {
        setSaving(true);
        return updateWithdrawSettings(next)
          .then(
            (stored) => {
              queryClient.setQueryData(withdrawalKeys.settings, stored);
              form.setFieldsValue(stored);
              void message.success('Withdrawal settings saved');
            },
            (reason: unknown) => void message.error(errorText(reason)),
          )
          .finally(() => setSaving(false));
      },
    });
  };

  const amountInput = (testId: string) => <Input inputMode="decimal" suffix="USDT" autoComplete="off" data-testid={testId} />;

  return (
    <Card title="Settings" loading={saved === null && !error} data-testid="withdraw-settings">
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} />}
      <Form<SettingsForm> form={form} layout="vertical" disabled={!mayEdit} onFinish={save}>
        <Form.Item label={SETTINGS_LABELS.enabled} name="enabled" valuePropName="checked">
          <Switch data-testid="withdraw-enabled" />
        </Form.Item>
        <Typography.Paragraph strong style={{ marginBottom: 8 }}>
          Methods members may withdraw to
        </Typography.Paragraph>
        <Space size="large" wrap>
          {(Object.keys(SETTINGS_LABELS.methods) as (keyof WithdrawSettings['methods'])[]).map((type) => (
            <Form.Item key={type} label={SETTINGS_LABELS.methods[type]} name={['methods', type]} valuePropName="checked">
              <Switch data-testid={`withdraw-method-${type}`} />
            </Form.Item>
          ))}
        </Space>
        <Space size="large" wrap align="start">
          <Form.Item
            label={SETTINGS_LABELS.feeFixed}
            name="feeFixed"
            extra="Per withdrawal; 0 for none."
            rules={[{ required: true, message: 'Enter the fixed fee (0 for none)' }]}
          >
            {amountInput('withdraw-fee-fixed')}
          </Form.Item>
          <Form.Item
            label={SETTINGS_LABELS.feeRate}
            name="feeRate"
            extra={
              <span data-testid="withdraw-fee-percent">
                {feePercent === null ? 'A fraction of the amount, e.g. 0.001' : `= ${feePercent} % of the amount, rounded up`}
              </span>
            }
            rules={[{ required: true, message: 'Enter the fee rate (0 for none)' }]}
          >
            <Input inputMode="decimal" autoComplete="off" data-testid="withdraw-fee-rate" />
          </Form.Item>
        </Space>
        <Space size="large" wrap align="start">
          <Form.Item label={SETTINGS_LABELS.minimum} name="minimum" rules={[{ required: true, message: 'Enter the minimum' }]}>
            {amountInput('withdraw-minimum')}
          </Form.Item>
          <Form.Item label={SETTINGS_LABELS.maximum} name="maximum" rules={[{ required: true, message: 'Enter the maximum' }]}>
            {amountInput('withdraw-maximum')}
          </Form.Item>
          <Form.Item
            label={SETTINGS_LABELS.dailyLimit}
            name="dailyLimit"
            extra="Per platform day; everything not refunded counts."
            rules={[{ required: true, message: 'Enter the daily limit' }]}
          >
            {amountInput('withdraw-daily-limit')}
          </Form.Item>
        </Space>
        <Form.Item label={SETTINGS_LABELS.openDays} name="openDays">
          <Checkbox.Group options={WEEKDAYS.map((day) => ({ ...day }))} data-testid="withdraw-open-days" />
        </Form.Item>
        <Space size="large" wrap align="start">
          <Form.Item
            label={SETTINGS_LABELS.openTime}
            name="openTime"
            extra="HH:MM in the platform time zone"
            rules={[{ required: true, pattern: /^(?:[01]\d|2[0-3]):[0-5]\d$/, message: 'A time as HH:MM' }]}
          >
            <Input placeholder="09:00" style={{ width: 120 }} autoComplete="off" data-testid="withdraw-open-time" />
          </Form.Item>
          <Form.Item
            label={SETTINGS_LABELS.closeTime}
            name="closeTime"
            extra="HH:MM; the same as the opening time means all day"
            rules={[{ required: true, pattern: /^(?:[01]\d|2[0-3]):[0-5]\d$/, message: 'A time as HH:MM' }]}
          >
            <Input placeholder="21:00" style={{ width: 120 }} autoComplete="off" data-testid="withdraw-close-time" />
          </Form.Item>
        </Space>
        <Form.Item
          label={SETTINGS_LABELS.securityCoolingOffHours}
          name="securityCoolingOffHours"
          extra="After an operator resets a member's password or authenticator, or the member resets the trading password by e-mail code, that member cannot withdraw for this many hours (0: no pause). Gives the owner time to notice a takeover."
          rules={[{ required: true, message: 'Enter whole hours from 0 to 720' }]}
        >
          <InputNumber min={0} max={720} precision={0} style={{ width: 120 }} data-testid="withdraw-cooling-off-hours" />
        </Form.Item>
        {checked && 'problem' in checked && (
          <Alert
            type="warning"
            showIcon
            title={checked.problem}
            style={{ marginBottom: 16 }}
            data-testid="withdraw-settings-problem"
          />
        )}
        {preview && (
          <Descriptions size="small" column={1} title="At these settings" style={{ marginBottom: 16 }}>
            {PREVIEW_AMOUNTS.map((amount) => {
              const { fee, received } = feePreview(preview, amount);
              return (
                <Descriptions.Item key={amount} label={`Withdrawing ${amount} USDT`}>
                  fee {fee} USDT, the member receives {received} USDT
                </Descriptions.Item>
              );
            })}
          </Descriptions>
        )}
        {mayEdit && (
          <Space>
            <Button type="primary" htmlType="submit" loading={saving} data-testid="withdraw-settings-save">
              Save
            </Button>
            <Button htmlType="button" onClick={discard}>
              Discard changes
            </Button>
          </Space>
        )}
      </Form>
    </Card>
  );
}

function HolidaysCard({ mayEdit }: { mayEdit: boolean }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const holidaysQuery = useQuery({ queryKey: withdrawalKeys.holidays, queryFn: listHolidays, select: sortHolidays });
  const holidays: Holiday[] | null = holidaysQuery.data ?? null;
  const error = holidaysQuery.isError ? errorText(holidaysQuery.error) : null;
  // An add or a removal answers with the whole calendar.
  const setHolidays = (list: Holiday[]) => queryClient.setQueryData(withdrawalKeys.holidays, list);
  const [date, setDate] = useState('');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);

  const add = () => {
    if (!isIsoDate(date) || busy) return;
    setBusy(true);
    addHoliday({ date, note: note.trim() })
      .then(
        (list) => {
          void message.success(`Holiday ${date} added`);
          setDate('');
          setNote('');
          setHolidays(list);
        },
        (reason: unknown) => void message.error(errorText(reason)),
      )
      .finally(() => setBusy(false));
  };

  const remove = (holiday: Holiday) =>
    deleteHoliday(holiday.date).then(
      (list) => {
        void message.success(`Holiday ${holiday.date} removed`);
        setHolidays(list);
      },
      (reason: unknown) => void message.error(errorText(reason)),
    );

  return (
    <Card title="Holidays (no withdrawals on these days)" data-testid="withdraw-holidays">
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} />}
      {mayEdit && (
        <Space wrap style={{ marginBottom: 16 }}>
          <Input
            type="date"
            aria-label="Date"
            value={date}
            onChange={(event) => setDate(event.target.value)}
            style={{ width: 180 }}
            data-testid="holiday-date"
          />
          <Input
            aria-label="Note"
            placeholder="Note shown to members, e.g. National Day"
            maxLength={HOLIDAY_NOTE_MAX_LENGTH}
            value={note}
            onChange={(event) => setNote(event.target.value)}
            onPressEnter={add}
            style={{ width: 320 }}
            data-testid="holiday-note"
          />
          <Button type="primary" onClick={add} disabled={!isIsoDate(date)} loading={busy} data-testid="holiday-add">
            Add holiday
          </Button>
        </Space>
      )}
      <Table<Holiday>
        rowKey="date"
        size="small"
        loading={holidays === null && !error}
        dataSource={holidays ?? []}
        pagination={false}
        locale={{ emptyText: <Empty description="No holidays" /> }}
        onRow={(holiday) => ({ 'data-testid': 'holiday-row', 'data-date': holiday.date }) as object}
        columns={[
          { title: 'Date', dataIndex: 'date', render: (value: string) => <span data-testid="holiday-row-date">{value}</span> },
          { title: 'Note', dataIndex: 'note', render: (value: string) => value || '—' },
          ...(mayEdit
            ? [
                {
                  title: '',
                  key: 'actions',
                  render: (_: unknown, holiday: Holiday) => (
                    <Popconfirm
                      title={`Remove the holiday on ${holiday.date}?`}
                      okText="Remove"
                      okButtonProps={{ danger: true }}
                      onConfirm={() => void remove(holiday)}
                    >
                      <Button size="small" danger data-testid="holiday-delete">
                        Remove
                      </Button>
                    </Popconfirm>
                  ),
                },
              ]
            : []),
        ]}
      />
    </Card>
  );
}

function HotWalletCard({ wallet }: { wallet: HotWallet }) {
  const native = NATIVE_ASSET[wallet.network];
  return (
    <Card
      title={`${wallet.network} hot wallet`}
      size="small"
      extra={
        <Tag color={!wallet.configured ? 'default' : wallet.error ? 'red' : 'green'} data-testid="hot-wallet-state">
          {!wallet.configured ? 'Not configured' : wallet.error ? 'Error' : 'Ready'}
        </Tag>
      }
      data-testid={`hot-wallet-${wallet.network}`}
    >
      <Descriptions column={1} size="small">
        <Descriptions.Item label="Address">
          {wallet.address ? (
            <Typography.Text copyable={{ text: wallet.address }}>
              <a href={addressUrl(wallet.network, wallet.address)} target="_blank" rel="noopener noreferrer">
                {wallet.address}
              </a>
            </Typography.Text>
          ) : (
            '—'
          )}
        </Descriptions.Item>
        <Descriptions.Item label="USDT">
          <span data-testid="hot-wallet-usdt">{wallet.usdtBalance ?? '—'}</span>
        </Descriptions.Item>
        <Descriptions.Item label={`${native} (gas)`}>
          <span data-testid="hot-wallet-native">{wallet.nativeBalance ?? '—'}</span>
        </Descriptions.Item>
      </Descriptions>
      {!wallet.configured && (
        <Typography.Text type="secondary">
          Without a hot wallet, {wallet.network} payouts are made outside and marked paid with the transaction hash.
        </Typography.Text>
      )}
      {wallet.error && <Alert type="error" showIcon title={wallet.error} data-testid="hot-wallet-error" />}
    </Card>
  );
}

function HotWalletsCard() {
  const walletsQuery = useQuery({ queryKey: withdrawalKeys.hotWallets, queryFn: listHotWallets });
  const wallets: HotWallet[] | null = walletsQuery.data ?? null;
  const error = walletsQuery.isError ? errorText(walletsQuery.error) : null;
  const load = () => void walletsQuery.refetch();
  const loading = walletsQuery.isFetching;

  return (
    <Card
      title="Payout wallets"
      extra={
        <Button size="small" onClick={load} loading={loading}>
          Refresh
        </Button>
      }
      data-testid="hot-wallets"
    >
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} />}
      {wallets && wallets.length === 0 && <Empty description="No networks" />}
      <Row gutter={[16, 16]}>
        {wallets?.map((wallet) => (
          <Col key={wallet.network} xs={24} xl={12}>
            <HotWalletCard wallet={wallet} />
          </Col>
        ))}
      </Row>
    </Card>
  );
}

/** Withdrawal fee, limits, window and methods; the holiday calendar; the payout wallets' balances. */
export function WithdrawSettingsScreen({ operator }: { operator: Operator }) {
  const mayEdit = operatorMay(operator.role, 'withdraw.settings');
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%', maxWidth: 960 }}>
      <Typography.Title level={3}>Withdrawal settings</Typography.Title>
      {!mayEdit && <Alert type="info" showIcon title="Read only: your role may not change the withdrawal settings." />}
      <SettingsCard mayEdit={mayEdit} />
      <HolidaysCard mayEdit={mayEdit} />
      <HotWalletsCard />
    </Space>
  );
}
