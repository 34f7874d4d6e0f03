import { useEffect, useRef, useState } from 'react';
import { Button, Form, NoticeBar } from 'antd-mobile';
import { useTranslation } from '../../../lib/i18n/translator';
import { Link } from '../../../lib/router/router';
import { MACHINE_PAYMENT_ASSETS, type MachinePaymentAsset, type MachineProduct, type MemberMachine } from '@custos/contract';
import { useUserInfo } from '../../../api/use-user-info';
import { TradePasswordField } from '../../../components/forms/AmountField';
import { SingleSelector } from '../../../components/forms/SingleSelector';
import { QuoteRow } from '../../../components/QuoteRow';
import { displayMoney } from '../../../lib/format/money';
import { currentLocale } from '../../../lib/i18n/i18n';
import { IdempotencyKeyHolder } from '../../../lib/money/idempotency';
import { buyMachine } from '../api/buy-machine';
import { availableIn, buyProblem, defaultPayment, priceIn, productOutput, type BuyBalances } from '../machines';

interface BuyValues {
  payWith?: MachinePaymentAsset[];
  tradePassword?: string;
}

/**
 * Buying a machine: pay with USDT or tickets (with what is available of each), the price and the
 * output over the lifetime, the trading password. Mounted when the screen opens, so each opening has
 * its own idempotency key.
 */
export function BuyForm({
  product,
  balances,
  onDone,
  onRefused,
}: {
  product: MachineProduct;
  balances: BuyBalances;
  onDone: (machine: MemberMachine) => void;
  /** The server refused (balance, retired): what is shown may be stale. */
  onRefused: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<BuyValues>();
  const [busy, setBusy] = useState(false);
  // Until the profile is known the notice stays hidden rather than flashing.
  const hasTradePassword = useUserInfo().data?.hasTradePassword ?? true;
  const sending = useRef(false);
  // The key is made when the form opens; a lost answer keeps it so a retry cannot buy twice.
  const [keys] = useState(() => new IdempotencyKeyHolder());
  const [initialPayment] = useState(() => defaultPayment(product, balances));
  const payWith = Form.useWatch<MachinePaymentAsset[] | undefined>('payWith', form)?.[0] ?? initialPayment;

  // New balances (after a refusal) may change whether the choice is affordable.
  useEffect(() => {
    if (form.isFieldTouched('payWith')) void form.validateFields(['payWith']).catch(() => undefined);
  }, [balances, form]);

  const output = productOutput(product);
  const onSale = product.status === 'active';
  const assetLabel = (asset: MachinePaymentAsset) => t(`assetNames.${asset}`);

  const submit = async (values: BuyValues) => {
    const asset = values.payWith?.[0];
    if (!asset || sending.current) return;
    sending.current = true;
    setBusy(true);
    try {
      const machine = await buyMachine({
        machineId: product.id,
        payWith: asset,
        tradePassword: values.tradePassword ?? '',
        idempotencyKey: keys.current,
      });
      keys.succeeded();
      onDone(machine);
    } catch (error) {
      // The client has shown the server's message; a refusal frees the key, a lost answer keeps it.
      keys.failed(error);
      onRefused();
    } finally {
      sending.current = false;
      setBusy(false);
    }
  };

  return (
    <div className="hosting-deposit machine-buy" data-testid="machine-buy">
      {!onSale && (
        <NoticeBar
          color="alert"
          wrap
          content={buyProblem(product, 'USDT', balances, currentLocale())}
          data-testid="machine-retired"
        />
      )}
      {!hasTradePassword && (
        <NoticeBar
          color="info"
          wrap
          content={
            <span>
              {t('money.noTradePassword')} <Link to="/pages/update_pwd/update_pwd3">{t('money.setTradePassword')}</Link>
            </span>
          }
          data-testid="machine-no-trade-password"
        />
      )}
      <Form
        form={form}
        layout="vertical"
        initialValues={{ payWith: [initialPayment] }}
        onFinish={(values: BuyValues) => void submit(values)}
        footer={
          <Button
            block
            type="submit"
            color="primary"
            size="large"
            loading={busy}
            disabled={!onSale}
            data-testid="machine-buy-submit"
          >
            {t('machines.buy.submit')}
          </Button>
        }
      >
        <Form.Item
          name="payWith"
          label={t('machines.buy.payWith')}
          rules={[
            {
              validator: async (_rule, value: MachinePaymentAsset[] | undefined) => {
                const asset = value?.[0];
                if (!asset) throw new Error(t('machines.buy.choosePayment'));
                const problem = buyProblem(product, asset, balances, currentLocale());
                if (problem) throw new Error(problem);
              },
            },
          ]}
        >
          <SingleSelector<MachinePaymentAsset>
            columns={2}
            data-testid="machine-pay-with"
            onPicked={() => void form.validateFields(['payWith']).catch(() => undefined)}
            options={MACHINE_PAYMENT_ASSETS.map((asset) => ({
              value: asset,
              label: (
                <span data-testid="machine-pay-with-option" data-asset={asset}>
                  {assetLabel(asset)}
                </span>
              ),
              description: (
                <span data-testid={`machine-available-${asset}`}>
                  {t('money.available', { amount: displayMoney(availableIn(balances, asset)), asset: assetLabel(asset) })}
                </span>
              ),
            }))}
          />
        </Form.Item>
        <Form.Item label={t('machines.buy.summary')}>
          <div data-testid="machine-buy-quote">
            <QuoteRow
              label={t('machines.price')}
              value={`${displayMoney(priceIn(product, payWith))} ${assetLabel(payWith)}`}
              testId="machine-buy-price"
            />
            <QuoteRow
              label={t('machines.dailyOutput')}
              value={t('machines.perDay', { amount: displayMoney(output.daily) })}
              testId="machine-buy-daily"
            />
            <QuoteRow
              label={t('machines.totalOutput', { days: product.lifetimeDays })}
              value={`${displayMoney(output.lifetime)} RAB`}
              testId="machine-buy-total-output"
            />
          </div>
          <p className="hosting-note">{t('machines.buy.note', { days: product.lifetimeDays })}</p>
        </Form.Item>
        <TradePasswordField />
      </Form>
    </div>
  );
}
