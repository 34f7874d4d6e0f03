import { useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Form, NoticeBar, Segmented } from 'antd-mobile';
import { useTranslation } from '../../../lib/i18n/translator';
import { Link } from '../../../lib/router/router';
import { type ExchangeDirection } from '@custos/contract';
import { assetKeys } from '../../../api/keys';
import { useUserInfo } from '../../../api/use-user-info';
import { AmountField, TradePasswordField } from '../../../components/forms/AmountField';
import { displayMoney, displayRate, percentOf, trimMoney } from '../../../lib/format/money';
import { currentLocale } from '../../../lib/i18n/i18n';
import { normaliseAmountInput, parseAmount } from '../../../lib/money/amount';
import { IdempotencyKeyHolder } from '../../../lib/money/idempotency';
import { showToast } from '../../../lib/toast';
import { exchange } from '../api/exchange';
import { getExchangeIndex } from '../api/get-exchange-index';
import { exchangeKeys } from '../api/keys';
import { DIRECTION_ASSETS, minimumOf, previewExchange, spendableOf } from '../preview';

/** The quote is refreshed this often while the screen is open and visible, and whenever it regains focus. */
const REFRESH_MS = 10_000;

interface ExchangeValues {
  amount?: string;
  tradePassword?: string;
}

function QuoteRow({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="quote-row">
      <span className="quote-label">{label}</span>
      <span data-testid={testId}>{value}</span>
    </div>
  );
}

/** withdraw6: RAB ⇄ USDT at the operator's price, with a live quote and the trading password. */
export default function ExchangeScreen() {
  const { t } = useTranslation();
  const [form] = Form.useForm<ExchangeValues>();
  const queryClient = useQueryClient();
  // The query cache refetches on focus and pauses the interval while the page is hidden.
  const index = useQuery({ queryKey: exchangeKeys.index(), queryFn: getExchangeIndex, refetchInterval: REFRESH_MS }).data ?? null;
  const user = useUserInfo().data ?? null;
  const [direction, setDirection] = useState<ExchangeDirection>('usdt_to_rab');
  const [busy, setBusy] = useState(false);
  const sending = useRef(false);
  const [keys] = useState(() => new IdempotencyKeyHolder());
  const amountText = Form.useWatch('amount', form) ?? '';

  const locale = currentLocale();
  const { from, to } = DIRECTION_ASSETS[direction];
  const amount = parseAmount(normaliseAmountInput(amountText));
  const preview = index && amount !== null ? previewExchange(direction, amount, index, locale) : null;
  const quote = preview && 'quote' in preview ? preview.quote : null;
  const dash = '—';

  const submit = async (values: ExchangeValues) => {
    if (!index || sending.current) return;
    sending.current = true;
    setBusy(true);
    try {
      const order = await exchange({
        direction,
        amount: normaliseAmountInput(values.amount ?? ''),
        // The price the member was shown; if it has moved the server refuses and the new quote shows.
        quotedPrice: index.rabPriceUsdt,
        tradePassword: values.tradePassword ?? '',
        idempotencyKey: keys.current,
      });
      keys.succeeded();
      showToast(t('exchange.done', { amount: displayMoney(order.toAmount), asset: order.toAsset }));
      form.resetFields();
    } catch (error) {
      // The client has shown the server's message; a refusal frees the key, a lost answer keeps it.
      keys.failed(error);
    } finally {
      sending.current = false;
      setBusy(false);
      // The new quote (a refusal may mean the price moved) and the balances it spent from.
      void queryClient.invalidateQueries({ queryKey: exchangeKeys.index() });
      void queryClient.invalidateQueries({ queryKey: assetKeys.all });
    }
  };

  return (
    <div className="exchange-screen">
      {index && !index.enabled && <NoticeBar color="alert" content={t('exchange.closed')} wrap data-testid="exchange-closed" />}
      {user && !user.hasTradePassword && (
        <NoticeBar
          color="info"
          wrap
          content={
            <span>
              {t('money.noTradePassword')} <Link to="/pages/update_pwd/update_pwd3">{t('money.setTradePassword')}</Link>
            </span>
          }
        />
      )}
      <div className="exchange-direction">
        <Segmented
          block
          value={direction}
          options={[
            { value: 'usdt_to_rab', label: t('exchange.usdtToRab') },
            { value: 'rab_to_usdt', label: t('exchange.rabToUsdt') },
          ]}
          onChange={(value) => {
            setDirection(value as ExchangeDirection);
            form.resetFields(['amount']);
          }}
          data-testid="exchange-direction"
        />
      </div>
      <Form
        form={form}
        layout="vertical"
        onFinish={(values: ExchangeValues) => void submit(values)}
        footer={
          <Button
            block
            type="submit"
            color="primary"
            size="large"
            loading={busy}
            disabled={!index?.enabled}
            data-testid="exchange-submit"
          >
            {t('exchange.submit')}
          </Button>
        }
      >
        <Form.Header>
          <span data-testid="exchange-price">
            {index ? t('exchange.price', { price: displayRate(index.rabPriceUsdt) }) : t('common.loading')}
          </span>
        </Form.Header>
        <AmountField
          label={t('exchange.amount', { asset: from })}
          placeholder={index ? t('exchange.minimum', { amount: displayMoney(minimumOf(direction, index)), asset: from }) : ''}
          description={
            index
              ? `${t('money.available', { amount: displayMoney(spendableOf(direction, index)), asset: from })} · ${t(
                  'exchange.minimum',
                  { amount: displayMoney(minimumOf(direction, index)), asset: from },
                )}`
              : undefined
          }
          check={(value) => {
            if (!index) return null;
            const checked = previewExchange(direction, value, index, currentLocale());
            return 'problem' in checked ? checked.problem : null;
          }}
          onAll={() => {
            if (!index) return;
            form.setFieldValue('amount', trimMoney(spendableOf(direction, index)));
            void form.validateFields(['amount']).catch(() => undefined);
          }}
        />
        <Form.Item label={t('exchange.quote')} className="exchange-quote">
          <QuoteRow
            label={t('exchange.receive')}
            value={quote ? `${displayMoney(quote.toAmount)} ${to}` : dash}
            testId="quote-receive"
          />
          <QuoteRow
            label={index ? t('exchange.fee', { rate: percentOf(index.feeRate) }) : t('exchange.feeShort')}
            value={quote ? `${displayMoney(quote.fee)} USDT` : dash}
            testId="quote-fee"
          />
          <QuoteRow
            label={t('exchange.feeFuel')}
            value={quote ? `${displayMoney(quote.feeFuel)} FUEL` : dash}
            testId="quote-fee-fuel"
          />
          <QuoteRow
            label={t('exchange.feeUsdt')}
            value={quote ? `${displayMoney(quote.feeUsdt)} USDT` : dash}
            testId="quote-fee-usdt"
          />
          <QuoteRow
            label={t('exchange.fuelAvailable')}
            value={index ? `${displayMoney(index.available.FUEL)} FUEL` : dash}
            testId="fuel-available"
          />
        </Form.Item>
        <TradePasswordField />
      </Form>
      <p className="money-note">{t('exchange.feeNote')}</p>
      <div className="money-links">
        <Link to="/pages/blance_record/blance_record3" data-testid="exchange-records-link">
          {t('routes.blanceRecord3')}
        </Link>
      </div>
    </div>
  );
}
