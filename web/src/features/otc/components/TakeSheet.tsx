import { useRef, useState } from 'react';
import { Button, Form, Popup, Selector } from 'antd-mobile';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n/translator';
import { Link, useNavigate } from '../../../lib/router/router';
import { money, otcFiatAmount, type OtcInfo, type OtcMarketListing } from '@custos/contract';
import { assetKeys } from '../../../api/keys';
import { AmountField, TradePasswordField } from '../../../components/forms/AmountField';
import { GoogleCodeField } from '../../../components/forms/GoogleCodeField';
import { QuoteRow } from '../../../components/QuoteRow';
import { displayMoney, trimMoney } from '../../../lib/format/money';
import { formatDateTime } from '../../../lib/format/time';
import { currentLocale } from '../../../lib/i18n/i18n';
import { normaliseAmountInput, parseAmount } from '../../../lib/money/amount';
import { IdempotencyKeyHolder } from '../../../lib/money/idempotency';
import { buyFromListing } from '../api/buy';
import { otcKeys } from '../api/keys';
import { sellToListing } from '../api/sell';
import { takeAmountProblem, takeMaximum } from '../otc';
import { ADD_PAYMENT_METHOD_PATH, IDENTITY_PATH, orderDetailPath } from '../paths';
import { PaymentMethodOption } from './PaymentMethodOption';
import { TraderLine } from './TraderLine';

interface TakeValues {
  amount?: string;
  paymentMethodIds?: string[];
  tradePassword?: string;
  googleCode?: string;
}

/**
 * Taking a listing (spec "buy" / "sell"): an amount within its limits (all of it when it cannot be
 * split), the fiat to pay or receive at its price, and, when selling, which of my methods the buyer
 * pays to and what a withdrawal needs (trading password, authenticator code when bound: selling
 * commits my USDT to leave the account). The order opens and its detail screen takes over.
 */
export function TakeSheet({ listing, info, onClose }: { listing: OtcMarketListing; info: OtcInfo; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<TakeValues>();
  const [busy, setBusy] = useState(false);
  const sending = useRef(false);
  // One key per sheet opening; a lost answer keeps it so a second tap cannot open two orders.
  const [keys] = useState(() => new IdempotencyKeyHolder());
  const amountText = Form.useWatch('amount', form) ?? '';

  const selling = listing.side === 'buy';
  const locale = currentLocale();
  const amount = parseAmount(normaliseAmountInput(amountText));
  const fiat = amount !== null ? otcFiatAmount(money.formatMoney(amount), listing.price) : null;
  const methods = info.paymentMethods.filter((method) => listing.paymentTypes.includes(method.type));
  const maximum = takeMaximum(listing);
  const canTrade =
    info.enabled &&
    info.me.realNameApproved &&
    info.me.suspendedUntil === null &&
    info.me.takingBarredUntil === null &&
    // Buying stays open during the pause after a security reset; selling does not (decision 051).
    !(selling && info.me.coolingOffUntil !== null);

  const submit = async (values: TakeValues) => {
    if (sending.current) return;
    sending.current = true;
    setBusy(true);
    const body = { listingId: listing.id, amount: normaliseAmountInput(values.amount ?? ''), idempotencyKey: keys.current };
    try {
      const order = selling
        ? await sellToListing({
            ...body,
            paymentMethodIds: values.paymentMethodIds ?? [],
            tradePassword: values.tradePassword ?? '',
            ...(info.me.requiresAuthenticator ? { googleCode: values.googleCode?.trim() ?? '' } : {}),
          })
        : await buyFromListing(body);
      keys.succeeded();
      void queryClient.invalidateQueries({ queryKey: otcKeys.all });
      void queryClient.invalidateQueries({ queryKey: assetKeys.all });
      onClose();
      void navigate(orderDetailPath(order.id));
    } catch (error) {
      // The server's refusal has been shown (limits, own listing, taken meanwhile); the market refreshes.
      keys.failed(error);
      form.resetFields(['tradePassword', 'googleCode']);
      void queryClient.invalidateQueries({ queryKey: otcKeys.all });
    } finally {
      sending.current = false;
      setBusy(false);
    }
  };

  return (
    <Popup
      visible
      onMaskClick={onClose}
      onClose={onClose}
      destroyOnClose
      bodyClassName="otc-sheet"
      bodyStyle={{ maxHeight: '88vh', overflowY: 'auto' }}
    >
      <div data-testid="otc-take-sheet" data-listing-id={listing.id}>
        <h3 className="otc-sheet-title">
          {selling
            ? t('otc.take.sellTitle', { nickname: listing.trader.nickname })
            : t('otc.take.buyTitle', { nickname: listing.trader.nickname })}
        </h3>
        <TraderLine trader={listing.trader} />
        <QuoteRow label={t('otc.price')} value={`${displayMoney(listing.price)} ${info.fiatCurrency}`} testId="otc-take-price" />
        <QuoteRow label={t('otc.available')} value={`${displayMoney(listing.available)} USDT`} testId="otc-take-available" />
        <QuoteRow
          label={t('otc.limits')}
          value={
            listing.splittable
              ? t('otc.limitsValue', { min: displayMoney(listing.minPerOrder), max: displayMoney(listing.maxPerOrder) })
              : t('otc.notSplittable')
          }
          testId="otc-take-limits"
        />
        {selling && info.me.coolingOffUntil !== null && (
          <p className="withdraw-unavailable" data-testid="otc-take-cooling-off">
            {t('otc.coolingOff', { until: formatDateTime(info.me.coolingOffUntil) })}
          </p>
        )}
        <Form
          form={form}
          layout="vertical"
          initialValues={listing.splittable ? {} : { amount: trimMoney(listing.available) }}
          onFinish={(values: TakeValues) => void submit(values)}
          footer={
            canTrade ? (
              <Button
                block
                type="submit"
                color={selling ? 'danger' : 'success'}
                size="large"
                loading={busy}
                disabled={selling && methods.length === 0}
                data-testid="otc-take-submit"
              >
                {selling ? t('otc.take.confirmSell') : t('otc.take.confirmBuy')}
              </Button>
            ) : !info.me.realNameApproved ? (
              <Button
                block
                color="primary"
                size="large"
                onClick={() => void navigate(IDENTITY_PATH)}
                data-testid="otc-take-verify"
              >
                {t('otc.verifyNow')}
              </Button>
            ) : null
          }
        >
          <AmountField
            label={t('otc.take.amount')}
            placeholder={t('otc.take.amountPlaceholder', { min: trimMoney(listing.minPerOrder), max: trimMoney(maximum) })}
            check={(value) => takeAmountProblem(money.formatMoney(value), listing, locale)}
            onAll={() => {
              form.setFieldValue('amount', trimMoney(maximum));
              void form.validateFields(['amount']).catch(() => undefined);
            }}
          />
          <Form.Item label={selling ? t('otc.take.youReceive') : t('otc.take.youPay')}>
            <div className="otc-take-fiat" data-testid="otc-take-fiat">
              {fiat ? `${fiat} ${info.fiatCurrency}` : '—'}
            </div>
          </Form.Item>
          {selling && (
            <Form.Item
              name="paymentMethodIds"
              label={t('otc.take.receiveTo')}
              rules={[{ required: true, type: 'array', min: 1, message: t('otc.take.chooseMethod') }]}
              description={
                methods.length === 0 ? (
                  <span data-testid="otc-take-no-method">
                    {t('otc.take.noMatchingMethod', {
                      types: listing.paymentTypes.map((type) => t(`otc.paymentTypes.${type}`)).join(' / '),
                    })}{' '}
                    <Link to={ADD_PAYMENT_METHOD_PATH}>{t('otc.take.addMethod')}</Link>
                  </span>
                ) : undefined
              }
            >
              <Selector
                multiple
                columns={1}
                data-testid="otc-take-methods"
                options={methods.map((method) => ({ value: method.id, label: <PaymentMethodOption method={method} /> }))}
              />
            </Form.Item>
          )}
          {selling && <TradePasswordField />}
          {selling && info.me.requiresAuthenticator && <GoogleCodeField testId="otc-take-google-code" />}
        </Form>
        <p className="money-note">
          {selling ? t('otc.take.sellHold') : t('otc.take.buyNote', { minutes: listing.paymentWindowMinutes })}
        </p>
        {listing.terms && (
          <div className="otc-terms" data-testid="otc-take-terms">
            <div className="otc-listing-label">{t('otc.take.terms')}</div>
            <div>{listing.terms}</div>
          </div>
        )}
      </div>
    </Popup>
  );
}
