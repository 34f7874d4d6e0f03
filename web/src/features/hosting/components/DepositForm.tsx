import { useRef, useState } from 'react';
import { Button, Form, NoticeBar, Switch } from 'antd-mobile';
import { useTranslation } from '../../../lib/i18n/translator';
import { Link } from '../../../lib/router/router';
import { money, type HostingConfig, type HostingOrder, type HostingPlan } from '@custos/contract';
import { useUserInfo } from '../../../api/use-user-info';
import { AmountField, TradePasswordField } from '../../../components/forms/AmountField';
import { displayMoney, percentOf, trimMoney } from '../../../lib/format/money';
import { currentLocale } from '../../../lib/i18n/i18n';
import { normaliseAmountInput, parseAmount } from '../../../lib/money/amount';
import { IdempotencyKeyHolder } from '../../../lib/money/idempotency';
import { showToast } from '../../../lib/toast';
import { createHostingOrder } from '../api/create-hosting-order';
import { calculateDeposit, depositAll, depositProblem } from '../calculator';
import { QuoteRow } from '../../../components/QuoteRow';

interface DepositValues {
  amount?: string;
  autoRenew?: boolean;
  tradePassword?: string;
}

/**
 * The deposit form of one plan: the amount (with "All"), the calculator (daily and total interest,
 * start and end date), auto-renew where the plan allows it, the trading password. Mounted when the
 * form opens, so each opening has its own idempotency key.
 */
export function DepositForm({
  plan,
  config,
  onDone,
}: {
  plan: HostingPlan;
  config: HostingConfig;
  onDone: (order: HostingOrder) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<DepositValues>();
  const [busy, setBusy] = useState(false);
  // Until the profile is known the notice stays hidden rather than flashing.
  const hasTradePassword = useUserInfo().data?.hasTradePassword ?? true;
  const sending = useRef(false);
  // The key is made when the form opens; a lost answer keeps it so a retry cannot deposit twice.
  const [keys] = useState(() => new IdempotencyKeyHolder());
  const amountText = Form.useWatch('amount', form) ?? '';

  const locale = currentLocale();
  const amount = parseAmount(normaliseAmountInput(amountText));
  const calculation = calculateDeposit(amount, plan, config, locale, new Date());
  const { quote } = calculation;
  const dash = '—';

  const submit = async (values: DepositValues) => {
    if (sending.current) return;
    sending.current = true;
    setBusy(true);
    try {
      const order = await createHostingOrder({
        planId: plan.id,
        amount: normaliseAmountInput(values.amount ?? ''),
        autoRenew: plan.autoRenewAllowed && values.autoRenew === true,
        tradePassword: values.tradePassword ?? '',
        idempotencyKey: keys.current,
      });
      keys.succeeded();
      showToast(t('hosting.done', { amount: displayMoney(order.amount), plan: order.planName }));
      onDone(order);
    } catch (error) {
      // The client has shown the server's message; a refusal frees the key, a lost answer keeps it.
      keys.failed(error);
    } finally {
      sending.current = false;
      setBusy(false);
    }
  };

  return (
    <div className="hosting-deposit" data-testid="hosting-deposit" data-plan-id={plan.id}>
      <div className="hosting-deposit-title" data-testid="hosting-deposit-title">
        {t('hosting.depositTitle', { plan: plan.name })}
      </div>
      <div className="hosting-deposit-terms">
        {t('hosting.planTerms', {
          days: plan.periodDays,
          rate: percentOf(plan.dailyRate),
          min: displayMoney(plan.minAmount),
          max: displayMoney(plan.maxAmount),
        })}
      </div>
      {!hasTradePassword && (
        <NoticeBar
          color="info"
          wrap
          content={
            <span>
              {t('money.noTradePassword')} <Link to="/pages/update_pwd/update_pwd3">{t('money.setTradePassword')}</Link>
            </span>
          }
          data-testid="hosting-no-trade-password"
        />
      )}
      <Form
        form={form}
        layout="vertical"
        initialValues={{ autoRenew: false }}
        onFinish={(values: DepositValues) => void submit(values)}
        footer={
          <Button block type="submit" color="primary" size="large" loading={busy} data-testid="hosting-submit">
            {t('hosting.submit')}
          </Button>
        }
      >
        <AmountField
          label={t('hosting.amount')}
          placeholder={t('hosting.amountPlaceholder', { min: trimMoney(plan.minAmount), max: trimMoney(plan.maxAmount) })}
          description={t('money.available', { amount: displayMoney(config.cashBalance), asset: 'USDT' })}
          check={(value) => depositProblem(value, plan, config.cashBalance, currentLocale())}
          onAll={() => {
            const all = depositAll(plan, config.cashBalance);
            form.setFieldValue('amount', money.isPositive(all) ? trimMoney(money.formatMoney(all)) : '');
            void form.validateFields(['amount']).catch(() => undefined);
          }}
        />
        <Form.Item label={t('hosting.calculator')} className="hosting-calculator">
          <div data-testid="hosting-calculator">
            <QuoteRow
              label={t('hosting.dailyInterest')}
              value={quote ? `${displayMoney(quote.dailyInterest)} USDT` : dash}
              testId="hosting-calc-daily"
            />
            <QuoteRow
              label={t('hosting.totalInterest', { days: plan.periodDays })}
              value={quote ? `${displayMoney(quote.totalInterest)} USDT` : dash}
              testId="hosting-calc-total"
            />
            <QuoteRow label={t('hosting.startDate')} value={calculation.startDate} testId="hosting-calc-start" />
            <QuoteRow label={t('hosting.endDate')} value={calculation.endDate} testId="hosting-calc-end" />
          </div>
          <p className="hosting-note">{t('hosting.calculatorNote')}</p>
        </Form.Item>
        {plan.autoRenewAllowed && (
          <Form.Item label={t('hosting.autoRenew')} description={t('hosting.autoRenewHint')}>
            <Form.Item name="autoRenew" valuePropName="checked" noStyle>
              <Switch data-testid="hosting-auto-renew" />
            </Form.Item>
          </Form.Item>
        )}
        <TradePasswordField />
      </Form>
    </div>
  );
}
