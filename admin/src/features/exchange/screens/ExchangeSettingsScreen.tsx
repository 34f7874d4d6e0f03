import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Descriptions, Form, Input, Space, Switch, Typography } from 'antd';
import {
  exchangeSettingsSchema,
  money,
  operatorMay,
  quoteExchange,
  type ExchangeSettings,
  type Operator,
} from '@custos/contract';
import { fractionToPercent, toMoneyString } from '../../../lib/decimal';
import { getExchangeSettings } from '../api/get-exchange-settings';
import { updateExchangeSettings } from '../api/update-exchange-settings';
import { exchangeKeys } from '../api/keys';
import { errorText } from '../../../lib/query/query-client';

interface SettingsForm {
  enabled: boolean;
  rabPriceUsdt: string;
  feeRate: string;
  minRab: string;
  minUsdt: string;
}

const FIELD_LABELS: Record<keyof ExchangeSettings, string> = {
  enabled: 'Exchange enabled',
  rabPriceUsdt: 'RAB price (USDT)',
  feeRate: 'Fee rate',
  minRab: 'Minimum RAB',
  minUsdt: 'Minimum USDT',
};

const PREVIEW_AMOUNT = '100';

/** The form's text as the settings the server takes, or null while a field is not valid. */
function toSettings(values: Partial<SettingsForm>): ExchangeSettings | null {
  const minRab = toMoneyString(values.minRab ?? '');
  const minUsdt = toMoneyString(values.minUsdt ?? '');
  if (minRab === null || minUsdt === null) return null;
  const parsed = exchangeSettingsSchema.safeParse({
    enabled: values.enabled ?? false,
    rabPriceUsdt: values.rabPriceUsdt?.trim(),
    feeRate: values.feeRate?.trim(),
    minRab,
    minUsdt,
  });
  return parsed.success ? parsed.data : null;
}

function decimalRule(field: 'rabPriceUsdt' | 'feeRate', text: string) {
  return {
    validator: async (_: unknown, value: string | undefined) => {
      if (!exchangeSettingsSchema.shape[field].safeParse((value ?? '').trim()).success) throw new Error(text);
    },
  };
}

const moneyRule = {
  validator: async (_: unknown, value: string | undefined) => {
    if (toMoneyString(value ?? '') === null) throw new Error('Enter an amount with at most 4 decimal places');
  },
};

/** What a member would get for 100 RAB and for 100 USDT at these settings (no FUEL to pay the fee). */
function Preview({ settings }: { settings: ExchangeSettings }) {
  const amount = money.parseMoney(PREVIEW_AMOUNT);
  const describe = (direction: 'rab_to_usdt' | 'usdt_to_rab') => {
    const result = quoteExchange(direction, amount, settings, money.ZERO);
    if ('problem' in result) return result.problem === 'below_minimum' ? 'below the minimum' : 'nothing after the fee';
    const { quote } = result;
    return `${money.formatMoney(quote.toAmount)} ${quote.toAsset} (fee ${money.formatMoney(quote.fee)} USDT)`;
  };
  return (
    <Descriptions size="small" column={1} title="At these settings">
      <Descriptions.Item label={`Selling ${PREVIEW_AMOUNT} RAB`}>{describe('rab_to_usdt')}</Descriptions.Item>
      <Descriptions.Item label={`Spending ${PREVIEW_AMOUNT} USDT`}>{describe('usdt_to_rab')}</Descriptions.Item>
    </Descriptions>
  );
}

/** RAB ⇄ USDT: the operator's price, fee and minimums; changes are audited with the values before and after. */
export function ExchangeSettingsScreen({ operator }: { operator: Operator }) {
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  // An edit form: a window focus must not overwrite what the operator is typing.
  const settingsQuery = useQuery({
    queryKey: exchangeKeys.settings,
    queryFn: getExchangeSettings,
    refetchOnWindowFocus: false,
  });
  const saved = settingsQuery.data ?? null;
  const error = settingsQuery.isError ? errorText(settingsQuery.error) : null;
  const [form] = Form.useForm<SettingsForm>();
  const [saving, setSaving] = useState(false);
  const mayEdit = operatorMay(operator.role, 'exchange.settings');
  const watched = Form.useWatch([], form) as Partial<SettingsForm> | undefined;
  const feePercent = fractionToPercent(watched?.feeRate ?? '');
  const preview = watched ? toSettings(watched) : null;

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
    const next = toSettings(values);
    if (!next || !saved) return;
    const changed = (Object.keys(FIELD_LABELS) as (keyof ExchangeSettings)[]).filter((key) => next[key] !== saved[key]);
    if (changed.length === 0) {
      void message.info('Nothing changed');
      return;
    }
    modal.confirm({
      title: 'Save the exchange settings?',
      content: (
        <Space orientation="vertical">
          {changed.map((key) => (
            <Typography.Text key={key}>
              {FIELD_LABELS[key]}: {String(saved[key])} → <Typography.Text strong>{String(next[key])}</Typography.Text>
            </Typography.Text>
          ))}
          <Typography.Text type="secondary">
            Members see the change at once; exchanges quoted at an older price are refused as stale.
          </Typography.Text>
        </Space>
      ),
      okText: 'Save',
      onOk: () => {
        setSaving(true);
        return updateExchangeSettings(next)
          .then(
            (stored) => {
              queryClient.setQueryData(exchangeKeys.settings, stored);
              form.setFieldsValue(stored);
              void message.success('Exchange settings saved');
            },
            (reason: unknown) => void message.error(errorText(reason)),
          )
          .finally(() => setSaving(false));
      },
    });
  };

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%', maxWidth: 720 }}>
      <Typography.Title level={3}>Exchange settings</Typography.Title>
      {!mayEdit && <Alert type="info" showIcon title="Read only: your role may not change the exchange settings." />}
      {error && <Alert type="error" showIcon title={error} />}
      <Card loading={saved === null && !error}>
        <Form<SettingsForm> form={form} layout="vertical" disabled={!mayEdit} onFinish={save}>
          <Form.Item label={FIELD_LABELS.enabled} name="enabled" valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item
            label={FIELD_LABELS.rabPriceUsdt}
            name="rabPriceUsdt"
            extra="USDT paid or asked for one RAB; up to 8 decimal places."
            rules={[decimalRule('rabPriceUsdt', 'Enter a positive price with at most 8 decimal places')]}
          >
            <Input inputMode="decimal" suffix="USDT per RAB" autoComplete="off" />
          </Form.Item>
          <Form.Item
            label={FIELD_LABELS.feeRate}
            name="feeRate"
            extra={
              <span data-testid="fee-percent">
                {feePercent === null
                  ? 'A fraction of the trade’s USDT value, e.g. 0.005'
                  : `= ${feePercent} % of the trade’s USDT value`}
              </span>
            }
            rules={[decimalRule('feeRate', 'Enter a fraction below 1 with at most 8 decimal places, e.g. 0.005 for 0.5 %')]}
          >
            <Input inputMode="decimal" autoComplete="off" />
          </Form.Item>
          <Space size="large" wrap>
            <Form.Item label={FIELD_LABELS.minRab} name="minRab" rules={[moneyRule]}>
              <Input inputMode="decimal" suffix="RAB" autoComplete="off" />
            </Form.Item>
            <Form.Item label={FIELD_LABELS.minUsdt} name="minUsdt" rules={[moneyRule]}>
              <Input inputMode="decimal" suffix="USDT" autoComplete="off" />
            </Form.Item>
          </Space>
          {mayEdit && (
            <Space>
              <Button type="primary" htmlType="submit" loading={saving}>
                Save
              </Button>
              <Button htmlType="button" onClick={discard}>
                Discard changes
              </Button>
            </Space>
          )}
        </Form>
      </Card>
      {preview && (
        <Card size="small">
          <Preview settings={preview} />
        </Card>
      )}
    </Space>
  );
}
