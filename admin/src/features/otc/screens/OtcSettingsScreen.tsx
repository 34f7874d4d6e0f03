import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Descriptions, Form, Input, InputNumber, Space, Switch, Typography } from 'antd';
import { operatorMay, otcFee, otcPriceBand, type Operator, type OtcSettings } from '@custos/contract';
import { errorText } from '../../../lib/query/query-client';
import { getOtcSettings, updateOtcSettings } from '../api/otc';
import { otcKeys } from '../api/keys';
import { SETTINGS_LABELS, settingsChanges, toOtcSettings, type OtcSettingsForm } from '../otc';

const PREVIEW_QUANTITY = '1000.0000';

function money(testId: string, suffix?: string) {
  return <Input inputMode="decimal" autoComplete="off" suffix={suffix} style={{ width: 220 }} data-testid={testId} />;
}

function minutes(testId: string, min: number, max: number) {
  return <InputNumber min={min} max={max} precision={0} style={{ width: 160 }} data-testid={testId} />;
}

/** What the settings mean for a member, while they are valid: the price band and the fee on an order. */
function Preview({ settings }: { settings: OtcSettings }) {
  const band = otcPriceBand(settings.guidePrice, settings.priceBandPct);
  return (
    <Descriptions
      size="small"
      column={1}
      title="At these settings"
      style={{ marginBottom: 16 }}
      data-testid="otc-settings-preview"
    >
      <Descriptions.Item label="Listings priced from">
        <span data-testid="otc-settings-band">
          {band.min} to {band.max} {settings.fiatCurrency} per USDT
        </span>
      </Descriptions.Item>
      <Descriptions.Item label={`An order of ${PREVIEW_QUANTITY} USDT`}>
        the maker pays a fee of {otcFee(PREVIEW_QUANTITY, settings.makerFeePct)} USDT
      </Descriptions.Item>
      <Descriptions.Item label="Appeals">
        {settings.releaseWindowMinutes === 0
          ? 'open as soon as the buyer marks an order paid'
          : `open ${settings.releaseWindowMinutes} min after the buyer marks an order paid, if the seller has not released`}
      </Descriptions.Item>
    </Descriptions>
  );
}

/**
 * OTC settings (decision 031): guide price and band, the maker's fee, payment and release windows,
 * order and listing limits, the daily taker-cancel limit and the security deposit. Checked with the
 * contract's schema before the confirmation and again by the server, which audits every save.
 */
export function OtcSettingsScreen({ operator }: { operator: Operator }) {
  const mayEdit = operatorMay(operator.role, 'otc.manage');
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const settingsQuery = useQuery({ queryKey: otcKeys.settings, queryFn: getOtcSettings, refetchOnWindowFocus: false });
  const saved = settingsQuery.data ?? null;
  const [form] = Form.useForm<OtcSettingsForm>();
  const [problem, setProblem] = useState<{ text: string; field: string } | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const watched = Form.useWatch([], form) as OtcSettingsForm | undefined;
  const checked = watched ? toOtcSettings(watched) : null;

  // The form shows what is stored whenever a fresh copy arrives (first load, after a save).
  useEffect(() => {
    if (saved) form.setFieldsValue(saved);
  }, [saved, form]);

  const save = (values: OtcSettingsForm) => {
    setRefusal(null);
    const result = toOtcSettings(values);
    if ('problem' in result) {
      setProblem({ text: result.problem, field: result.field });
      form.setFields([{ name: result.field as keyof OtcSettingsForm, errors: [result.problem] }]);
      return;
    }
    setProblem(null);
    if (!saved) return;
    const next = result.settings;
    const changes = settingsChanges(saved, next);
    if (changes.length === 0) {
      void message.info('Nothing changed');
      return;
    }
    modal.confirm({
      title: 'Save the OTC settings?',
      content: (
        <Space orientation="vertical" data-testid="otc-settings-changes">
          {changes.map((change) => (
            <Typography.Text key={change.label}>
              {change.label}: {change.before} → <Typography.Text strong>{change.after}</Typography.Text>
            </Typography.Text>
          ))}
          <Typography.Text type="secondary">
            New listings and orders follow at once; listings already posted keep their price, fee and window.
          </Typography.Text>
        </Space>
      ),
      okText: 'Save',
      onOk: () => {
        setSaving(true);
        return updateOtcSettings(next)
          .then(
            (stored) => {
              queryClient.setQueryData(otcKeys.settings, stored);
              form.setFieldsValue(stored);
              void message.success('OTC settings saved');
            },
            (reason: unknown) => setRefusal(errorText(reason)),
          )
          .finally(() => setSaving(false));
      },
    });
  };

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%', maxWidth: 960 }}>
      <Typography.Title level={3}>OTC settings</Typography.Title>
      {!mayEdit && <Alert type="info" showIcon title="Read only: your role may not change the OTC settings." />}
      {settingsQuery.isError && <Alert type="error" showIcon title={errorText(settingsQuery.error)} />}
      <Card loading={saved === null && !settingsQuery.isError} data-testid="otc-settings">
        <Form<OtcSettingsForm>
          form={form}
          layout="vertical"
          disabled={!mayEdit}
          onFinish={save}
          onValuesChange={() => {
            if (problem) form.setFields([{ name: problem.field as keyof OtcSettingsForm, errors: [] }]);
            setProblem(null);
            setRefusal(null);
          }}
        >
          <Form.Item
            label={SETTINGS_LABELS.enabled}
            name="enabled"
            valuePropName="checked"
            extra="Closed: members cannot post or take; open orders still finish."
          >
            <Switch data-testid="otc-enabled" />
          </Form.Item>
          <Typography.Title level={5}>Price</Typography.Title>
          <Space size="large" wrap align="start">
            <Form.Item label={SETTINGS_LABELS.fiatCurrency} name="fiatCurrency" extra="ISO 4217, e.g. CNY">
              <Input maxLength={3} style={{ width: 100 }} autoComplete="off" data-testid="otc-fiat-currency" />
            </Form.Item>
            <Form.Item label={SETTINGS_LABELS.guidePrice} name="guidePrice" extra="Shown on top of the market.">
              {money('otc-guide-price')}
            </Form.Item>
            <Form.Item
              label={SETTINGS_LABELS.priceBandPct}
              name="priceBandPct"
              extra='e.g. "5": 95 % to 105 % of the guide price'
            >
              <Input inputMode="decimal" autoComplete="off" suffix="%" style={{ width: 160 }} data-testid="otc-price-band" />
            </Form.Item>
            <Form.Item label={SETTINGS_LABELS.makerFeePct} name="makerFeePct" extra="The lister pays it; rounded up.">
              <Input inputMode="decimal" autoComplete="off" suffix="%" style={{ width: 160 }} data-testid="otc-maker-fee" />
            </Form.Item>
          </Space>
          <Typography.Title level={5}>Windows</Typography.Title>
          <Space size="large" wrap align="start">
            <Form.Item label={SETTINGS_LABELS.paymentWindowMinMinutes} name="paymentWindowMinMinutes">
              {minutes('otc-window-min', 5, 180)}
            </Form.Item>
            <Form.Item label={SETTINGS_LABELS.paymentWindowMaxMinutes} name="paymentWindowMaxMinutes">
              {minutes('otc-window-max', 5, 180)}
            </Form.Item>
            <Form.Item
              label={SETTINGS_LABELS.paymentWindowDefaultMinutes}
              name="paymentWindowDefaultMinutes"
              extra="Unpaid orders cancel themselves when their window ends."
            >
              {minutes('otc-window-default', 5, 180)}
            </Form.Item>
            <Form.Item
              label={SETTINGS_LABELS.releaseWindowMinutes}
              name="releaseWindowMinutes"
              extra="0: either side may appeal as soon as the order is marked paid."
            >
              {minutes('otc-release-window', 0, 1440)}
            </Form.Item>
          </Space>
          <Typography.Title level={5}>Limits and deposit</Typography.Title>
          <Space size="large" wrap align="start">
            <Form.Item label={SETTINGS_LABELS.orderMinimum} name="orderMinimum">
              {money('otc-order-minimum', 'USDT')}
            </Form.Item>
            <Form.Item label={SETTINGS_LABELS.orderMaximum} name="orderMaximum">
              {money('otc-order-maximum', 'USDT')}
            </Form.Item>
            <Form.Item label={SETTINGS_LABELS.listingMaximum} name="listingMaximum">
              {money('otc-listing-maximum', 'USDT')}
            </Form.Item>
          </Space>
          <Space size="large" wrap align="start">
            <Form.Item label={SETTINGS_LABELS.maxOpenListings} name="maxOpenListings">
              {minutes('otc-max-listings', 1, 100)}
            </Form.Item>
            <Form.Item label={SETTINGS_LABELS.maxOpenTakerOrders} name="maxOpenTakerOrders">
              {minutes('otc-max-taker-orders', 1, 100)}
            </Form.Item>
            <Form.Item
              label={SETTINGS_LABELS.takerDailyCancelLimit}
              name="takerDailyCancelLimit"
              extra="Timeouts count; the member may take again the next platform day."
            >
              {minutes('otc-cancel-limit', 1, 100)}
            </Form.Item>
            <Form.Item
              label={SETTINGS_LABELS.listingDeposit}
              name="listingDeposit"
              extra="Held from the lister while a listing lives; a ruling against the lister may forfeit it."
            >
              {money('otc-deposit', 'USDT')}
            </Form.Item>
          </Space>
          {problem && (
            <Alert type="error" showIcon title={problem.text} style={{ marginBottom: 16 }} data-testid="otc-settings-problem" />
          )}
          {refusal && (
            <Alert
              type="error"
              showIcon
              title={`Not saved: ${refusal}`}
              style={{ marginBottom: 16 }}
              data-testid="otc-settings-refused"
            />
          )}
          {checked && 'settings' in checked && <Preview settings={checked.settings} />}
          {mayEdit && (
            <Space>
              <Button type="primary" htmlType="submit" loading={saving} data-testid="otc-settings-save">
                Save
              </Button>
              <Button htmlType="button" onClick={() => saved && form.setFieldsValue(saved)}>
                Discard changes
              </Button>
            </Space>
          )}
        </Form>
      </Card>
    </Space>
  );
}
