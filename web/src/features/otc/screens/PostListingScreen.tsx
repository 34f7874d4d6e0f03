import { useRef, useState } from 'react';
import { Button, DotLoading, Form, Input, Segmented, Selector, Stepper, Switch, TextArea } from 'antd-mobile';
import type { RuleObject } from 'antd-mobile/es/components/form';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n/translator';
import { Link, useNavigate, useSearchParams } from '../../../lib/router/router';
import { OTC_TERMS_MAX_LENGTH, money, type OtcInfo, type OtcSide } from '@custos/contract';
import { assetKeys } from '../../../api/keys';
import { QuoteRow } from '../../../components/QuoteRow';
import { displayMoney } from '../../../lib/format/money';
import { currentLocale } from '../../../lib/i18n/i18n';
import { amountProblem, normaliseAmountInput } from '../../../lib/money/amount';
import { IdempotencyKeyHolder } from '../../../lib/money/idempotency';
import { showToast } from '../../../lib/toast';
import { otcKeys } from '../api/keys';
import { postListing } from '../api/post-listing';
import { EligibilityNotices } from '../components/EligibilityNotices';
import { PaymentMethodOption } from '../components/PaymentMethodOption';
import { postHolds, postProblems, type PostValues } from '../otc';
import { ADD_PAYMENT_METHOD_PATH, IDENTITY_PATH, MY_LISTINGS_PATH } from '../paths';
import { useOtcInfo } from '../use-otc-info';

interface FormValues {
  quantity?: string;
  price?: string;
  minPerOrder?: string;
  maxPerOrder?: string;
  splittable?: boolean;
  paymentMethodIds?: string[];
  paymentWindowMinutes?: number;
  terms?: string;
}

const AMOUNT_FIELDS = ['quantity', 'price', 'minPerOrder', 'maxPerOrder'] as const;
type AmountName = (typeof AMOUNT_FIELDS)[number];

function postValues(values: FormValues): PostValues {
  const quantity = normaliseAmountInput(values.quantity ?? '');
  const splittable = values.splittable ?? true;
  return {
    quantity,
    price: normaliseAmountInput(values.price ?? ''),
    // A listing that cannot be split is taken whole: its one order is its quantity.
    minPerOrder: splittable ? normaliseAmountInput(values.minPerOrder ?? '') : quantity,
    maxPerOrder: splittable ? normaliseAmountInput(values.maxPerOrder ?? '') : quantity,
    paymentWindowMinutes: values.paymentWindowMinutes ?? 0,
  };
}

/** An amount field's rule: the server's format, then the operator's rules that concern it (decided on every value). */
function amountRule(name: AmountName, info: OtcInfo) {
  return ({ getFieldsValue }: { getFieldsValue: () => FormValues }) => ({
    validator: async (_rule: RuleObject, value: string | undefined) => {
      const locale = currentLocale();
      const format = amountProblem(normaliseAmountInput(value ?? ''), locale, name);
      if (format) throw new Error(format);
      const problem = postProblems(postValues(getFieldsValue()), info, locale)[name];
      if (problem) throw new Error(problem);
    },
  });
}

function PostForm({ info, initialSide }: { info: OtcInfo; initialSide: OtcSide }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<FormValues>();
  const [side, setSide] = useState<OtcSide>(initialSide);
  const [busy, setBusy] = useState(false);
  const sending = useRef(false);
  const [keys] = useState(() => new IdempotencyKeyHolder());
  const quantityText = Form.useWatch('quantity', form) ?? '';
  const splittable = Form.useWatch('splittable', form) ?? true;
  const holds = postHolds(side, normaliseAmountInput(quantityText), info);
  const short = holds !== null && money.parseMoney(holds.total) > money.parseMoney(info.me.availableUsdt);
  // The pause after a security reset stops posting too (decision 051); the notice says until when.
  const canPost = info.enabled && info.me.realNameApproved && info.me.suspendedUntil === null && info.me.coolingOffUntil === null;
  const revalidate = () => void form.validateFields([...AMOUNT_FIELDS]).catch(() => undefined);

  const submit = async (values: FormValues) => {
    if (sending.current) return;
    sending.current = true;
    setBusy(true);
    try {
      const checked = postValues(values);
      await postListing({
        side,
        ...checked,
        splittable: values.splittable ?? true,
        paymentMethodIds: values.paymentMethodIds ?? [],
        terms: (values.terms ?? '').trim(),
        idempotencyKey: keys.current,
      });
      keys.succeeded();
      showToast(t('otc.postForm.posted'));
      void queryClient.invalidateQueries({ queryKey: otcKeys.all });
      void queryClient.invalidateQueries({ queryKey: assetKeys.all });
      void navigate(MY_LISTINGS_PATH, { replace: true });
    } catch (error) {
      // The server's refusal has been shown in its own words; a lost answer keeps the key.
      keys.failed(error);
      void queryClient.invalidateQueries({ queryKey: otcKeys.info() });
    } finally {
      sending.current = false;
      setBusy(false);
    }
  };

  const amountInput = (name: AmountName, label: string, description?: string) => (
    <Form.Item
      name={name}
      label={label}
      description={description}
      rules={[amountRule(name, info)]}
      normalize={(value: string | undefined) => normaliseAmountInput(value ?? '')}
    >
      <Input inputMode="decimal" autoComplete="off" onBlur={revalidate} data-testid={`otc-post-${name}`} />
    </Form.Item>
  );

  return (
    <div className="otc-post-screen" data-testid="otc-post-screen">
      <EligibilityNotices info={info} />
      <div className="otc-segment">
        <Segmented
          block
          value={side}
          onChange={(value) => setSide(value as OtcSide)}
          options={[
            { value: 'sell', label: <span data-testid="otc-post-side-sell">{t('otc.postForm.sideSell')}</span> },
            { value: 'buy', label: <span data-testid="otc-post-side-buy">{t('otc.postForm.sideBuy')}</span> },
          ]}
          data-testid="otc-post-side"
        />
      </div>
      <Form
        form={form}
        layout="vertical"
        initialValues={{ splittable: true, paymentWindowMinutes: info.paymentWindowDefaultMinutes, paymentMethodIds: [] }}
        onFinish={(values: FormValues) => void submit(values)}
        footer={
          canPost ? (
            <Button block type="submit" color="primary" size="large" loading={busy} data-testid="otc-post-submit">
              {t('otc.postForm.submit')}
            </Button>
          ) : !info.me.realNameApproved ? (
            <Button block color="primary" size="large" onClick={() => void navigate(IDENTITY_PATH)} data-testid="otc-post-verify">
              {t('otc.verifyNow')}
            </Button>
          ) : null
        }
      >
        {amountInput('quantity', t('otc.postForm.quantity'))}
        {amountInput(
          'price',
          t('otc.postForm.price', { currency: info.fiatCurrency }),
          t('otc.postForm.priceHint', {
            guide: displayMoney(info.guidePrice),
            min: displayMoney(info.priceMin),
            max: displayMoney(info.priceMax),
          }),
        )}
        <Form.Item label={t('otc.postForm.splittable')} description={t('otc.postForm.splittableHint')}>
          <Form.Item name="splittable" valuePropName="checked" noStyle>
            <Switch data-testid="otc-post-splittable" />
          </Form.Item>
        </Form.Item>
        {splittable && [
          <div key="limits" className="otc-post-limits">
            {amountInput('minPerOrder', t('otc.postForm.minPerOrder'))}
            {amountInput('maxPerOrder', t('otc.postForm.maxPerOrder'))}
          </div>,
          <p key="limits-hint" className="otc-post-hint">
            {t('otc.postForm.limitsHint', { min: displayMoney(info.orderMinimum), max: displayMoney(info.orderMaximum) })}
          </p>,
        ]}
        <Form.Item
          name="paymentMethodIds"
          label={t('otc.postForm.methods')}
          description={
            <>
              {info.paymentMethods.length === 0 ? (
                <span data-testid="otc-post-no-methods">{t('otc.postForm.noMethods')}</span>
              ) : side === 'sell' ? (
                t('otc.postForm.methodsSellHint')
              ) : (
                t('otc.postForm.methodsBuyHint')
              )}{' '}
              <Link to={ADD_PAYMENT_METHOD_PATH} data-testid="otc-add-method">
                {t('otc.take.addMethod')}
              </Link>
            </>
          }
          rules={[{ required: true, type: 'array', min: 1, message: t('otc.take.chooseMethod') }]}
        >
          <Selector
            multiple
            columns={1}
            data-testid="otc-post-methods"
            options={info.paymentMethods.map((method) => ({ value: method.id, label: <PaymentMethodOption method={method} /> }))}
          />
        </Form.Item>
        <Form.Item
          name="paymentWindowMinutes"
          label={t('otc.postForm.window')}
          description={t('otc.postForm.windowHint', { min: info.paymentWindowMinMinutes, max: info.paymentWindowMaxMinutes })}
        >
          <Stepper
            min={info.paymentWindowMinMinutes}
            max={info.paymentWindowMaxMinutes}
            step={5}
            digits={0}
            data-testid="otc-post-window"
          />
        </Form.Item>
        <Form.Item name="terms" label={t('otc.postForm.terms')}>
          <TextArea
            placeholder={t('otc.postForm.termsPlaceholder')}
            maxLength={OTC_TERMS_MAX_LENGTH}
            showCount
            autoSize={{ minRows: 2, maxRows: 5 }}
            data-testid="otc-post-terms"
          />
        </Form.Item>
        <Form.Item label={t('otc.postForm.held')} className="withdraw-quote">
          {side === 'sell' && (
            <QuoteRow
              label={t('otc.postForm.fee', { rate: info.makerFeePct })}
              value={holds ? `${displayMoney(holds.fee)} USDT` : '—'}
              testId="otc-post-fee"
            />
          )}
          <QuoteRow
            label={t('otc.postForm.deposit')}
            value={`${displayMoney(info.listingDeposit)} USDT`}
            testId="otc-post-deposit"
          />
          <QuoteRow
            label={t('otc.postForm.held')}
            value={holds ? `${displayMoney(holds.total)} USDT` : '—'}
            testId="otc-post-held"
          />
          {short && holds && (
            <div className="withdraw-unavailable" data-testid="otc-post-short">
              {t('otc.postForm.insufficient', { amount: displayMoney(holds.total) })}
            </div>
          )}
          {side === 'buy' && <p className="hosting-note">{t('otc.postForm.buyerFeeNote')}</p>}
        </Form.Item>
      </Form>
    </div>
  );
}

/** Post a listing (decision 032: its own route, opened from the Trade tab with the side preselected). */
export default function PostListingScreen() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const info = useOtcInfo();
  const initialSide: OtcSide = params.get('side') === 'buy' ? 'buy' : 'sell';
  if (!info.data) {
    return info.isError ? (
      <div className="recharge-failed" data-testid="otc-failed">
        <span>{t('records.loadFailed')}</span>{' '}
        <button type="button" className="link-button" onClick={() => void info.refetch()}>
          {t('records.retry')}
        </button>
      </div>
    ) : (
      <div className="page-loading">
        <DotLoading color="primary" />
      </div>
    );
  }
  return <PostForm info={info.data} initialSide={initialSide} />;
}
