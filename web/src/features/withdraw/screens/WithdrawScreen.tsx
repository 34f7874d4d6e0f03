import { SingleSelector } from '../../../components/forms/SingleSelector';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Button, DotLoading, Form, NoticeBar } from 'antd-mobile';
import { useTranslation } from '../../../lib/i18n/translator';
import { Link, useNavigate } from '../../../lib/router/router';
import { money, type WithdrawIndex } from '@custos/contract';
import { AmountField, TradePasswordField } from '../../../components/forms/AmountField';
import { GoogleCodeField } from '../../../components/forms/GoogleCodeField';
import { displayMoney, percentOf, trimMoney } from '../../../lib/format/money';
import { currentLocale } from '../../../lib/i18n/i18n';
import { normaliseAmountInput, parseAmount } from '../../../lib/money/amount';
import { IdempotencyKeyHolder } from '../../../lib/money/idempotency';
import { showToast } from '../../../lib/toast';
import { getWithdrawIndex } from '../api/get-withdraw-index';
import { requestWithdrawal } from '../api/withdraw';
import { defaultMethodId, methodDisplay, methodTypeEnabled } from '../methods';
import { METHODS_PATH, WITHDRAW_RECORDS_PATH } from '../paths';
import { dailyRemaining, feeLabel, previewWithdrawal, withdrawableNow } from '../preview';
import { closedText, coolingOffText, windowText, type Translate } from '../window';

/** The window may open or close while the screen is open: the index is fetched again this often and on focus. */
const REFRESH_MS = 60_000;

interface WithdrawValues {
  methodId?: string[];
  amount?: string;
  tradePassword?: string;
  googleCode?: string;
}

function QuoteRow({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="quote-row">
      <span className="quote-label">{label}</span>
      <span data-testid={testId}>{value}</span>
    </div>
  );
}

/** The window, today's holiday and the closed-now notice, shown before the member types. */
function WindowSection({ index, translate }: { index: WithdrawIndex; translate: Translate }) {
  const { t } = useTranslation();
  return (
    <section className="withdraw-section" data-testid="withdraw-window-section">
      <div className="withdraw-label">{t('withdraw.windowTitle')}</div>
      <div className="withdraw-window" data-testid="withdraw-window">
        {windowText(index.settings, index.timeZone, translate)}
      </div>
      {index.holidayToday !== null && (
        <p className="withdraw-holiday" data-testid="withdraw-holiday">
          {t('withdraw.holidayToday', { note: index.holidayToday })}
        </p>
      )}
      {!index.openNow && <NoticeBar color="alert" wrap content={closedText(index, translate)} data-testid="withdraw-closed" />}
    </section>
  );
}

/** withdraw: USDT from the main account to a saved method, inside the operator's window, after review. */
export default function WithdrawScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm<WithdrawValues>();
  const [index, setIndex] = useState<WithdrawIndex | null>(null);
  const [load, setLoad] = useState<{ attempt: number; failed: boolean }>({ attempt: 0, failed: false });
  const [busy, setBusy] = useState(false);
  const sending = useRef(false);
  // The key is made when the form opens; a lost answer keeps it so a retry cannot pay twice.
  const [keys] = useState(() => new IdempotencyKeyHolder());
  const amountText = Form.useWatch('amount', form) ?? '';
  const translate: Translate = useCallback((key, values) => t(key, values), [t]);

  const refresh = useCallback(
    () =>
      getWithdrawIndex().then(
        (value) => {
          setIndex(value);
          // Pick the first usable method unless the member already chose one that still exists.
          const chosen = form.getFieldValue('methodId') as string[] | undefined;
          if (!chosen?.[0] || !value.methods.some((method) => method.id === chosen[0])) {
            const first = defaultMethodId(value.methods, value.settings);
            form.setFieldValue('methodId', first ? [first] : []);
          }
        },
        () => setLoad((previous) => ({ ...previous, failed: true })),
      ),
    [form],
  );

  useEffect(() => {
    void refresh();
  }, [refresh, load.attempt]);

  useEffect(() => {
    const onFocus = () => {
      if (document.visibilityState === 'visible') void refresh();
    };
    const timer = window.setInterval(onFocus, REFRESH_MS);
    window.addEventListener('focus', onFocus);
    document.addEventListener('visibilitychange', onFocus);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener('focus', onFocus);
      document.removeEventListener('visibilitychange', onFocus);
    };
  }, [refresh]);

  if (!index && load.failed) {
    return (
      <div className="recharge-failed" data-testid="withdraw-index-failed">
        <span>{t('records.loadFailed')}</span>{' '}
        <button
          type="button"
          className="link-button"
          onClick={() => setLoad((previous) => ({ attempt: previous.attempt + 1, failed: false }))}
        >
          {t('records.retry')}
        </button>
      </div>
    );
  }
  if (!index) {
    return (
      <div className="page-loading">
        <DotLoading color="primary" />
      </div>
    );
  }

  const { settings } = index;
  const locale = currentLocale();
  const amount = parseAmount(normaliseAmountInput(amountText));
  const preview = amount !== null ? previewWithdrawal(amount, index, locale) : null;
  const quote = preview && 'quote' in preview ? preview.quote : null;
  const dash = '—';
  const hasMethods = index.methods.length > 0;
  const coolingOff = coolingOffText(index, translate);
  const canSubmit = settings.enabled && index.isMainAccount && index.openNow && hasMethods && coolingOff === null;
  const fee = feeLabel(settings);
  const methodLabel = (
    <span className="withdraw-method-label">
      <span>{t('withdraw.method')}</span>
      <Link to={METHODS_PATH} className="withdraw-manage" data-testid="withdraw-manage-methods">
        {t('withdraw.manageMethods')}
      </Link>
    </span>
  );

  const submit = async (values: WithdrawValues) => {
    const methodId = values.methodId?.[0];
    if (!methodId || sending.current) return;
    sending.current = true;
    setBusy(true);
    try {
      const done = await requestWithdrawal({
        methodId,
        amount: normaliseAmountInput(values.amount ?? ''),
        tradePassword: values.tradePassword ?? '',
        ...(index.requiresAuthenticator ? { googleCode: values.googleCode?.trim() ?? '' } : {}),
        idempotencyKey: keys.current,
      });
      keys.succeeded();
      showToast(t('withdraw.done', { amount: displayMoney(done.amount), received: displayMoney(done.received) }));
      form.resetFields(['amount', 'tradePassword', 'googleCode']);
      void navigate(WITHDRAW_RECORDS_PATH, { replace: true });
    } catch (error) {
      // The client has shown the server's message (and opens the trading-password or methods screen
      // for 4900/4901); a refusal frees the key, a lost answer keeps it.
      keys.failed(error);
      void refresh();
    } finally {
      sending.current = false;
      setBusy(false);
    }
  };

  return (
    <div className="withdraw-screen">
      {!index.isMainAccount && (
        <section className="withdraw-section withdraw-blocked" data-testid="withdraw-not-main">
          <p>{t('withdraw.mainAccountOnly')}</p>
          <Button
            color="primary"
            block
            onClick={() => void navigate('/pages/second/second')}
            data-testid="withdraw-switch-account"
          >
            {t('withdraw.switchAccount')}
          </Button>
        </section>
      )}
      {!settings.enabled && <NoticeBar color="alert" wrap content={t('withdraw.disabled')} data-testid="withdraw-disabled" />}
      {coolingOff !== null && <NoticeBar color="alert" wrap content={coolingOff} data-testid="withdraw-cooling-off" />}
      {!index.hasTradePassword && (
        <NoticeBar
          color="info"
          wrap
          content={
            <span>
              {t('money.noTradePassword')} <Link to="/pages/update_pwd/update_pwd3">{t('money.setTradePassword')}</Link>
            </span>
          }
          data-testid="withdraw-no-trade-password"
        />
      )}

      <section className="withdraw-section withdraw-balance-card">
        <div className="withdraw-label">{t('withdraw.balance')}</div>
        <div className="withdraw-balance" data-testid="withdraw-balance">
          {displayMoney(index.balance)} <span className="withdraw-unit">USDT</span>
        </div>
      </section>

      <WindowSection index={index} translate={translate} />

      <Form
        form={form}
        layout="vertical"
        onFinish={(values: WithdrawValues) => void submit(values)}
        footer={
          <Button
            block
            type="submit"
            color="primary"
            size="large"
            loading={busy}
            disabled={!canSubmit}
            data-testid="withdraw-submit"
          >
            {t('withdraw.submit')}
          </Button>
        }
      >
        {hasMethods ? (
          <Form.Item
            name="methodId"
            label={methodLabel}
            rules={[{ required: true, type: 'array', min: 1, message: t('withdraw.chooseMethod') }]}
          >
            <SingleSelector<string>
              columns={1}
              data-testid="withdraw-method"
              options={index.methods.map((method) => {
                const shown = methodDisplay(method, translate, true);
                const open = methodTypeEnabled(method.type, settings);
                return {
                  value: method.id,
                  disabled: !open,
                  label: (
                    <span data-testid="withdraw-method-option" data-method-type={method.type} data-network={method.network ?? ''}>
                      {shown.title}
                    </span>
                  ),
                  description: open ? shown.detail : t('withdraw.methodUnavailable'),
                };
              })}
            />
          </Form.Item>
        ) : (
          <Form.Item label={methodLabel}>
            <div className="withdraw-no-method" data-testid="withdraw-no-method">
              <span>{t('withdraw.noMethods')}</span>{' '}
              <Link to={METHODS_PATH} data-testid="withdraw-add-method">
                {t('withdraw.addMethod')}
              </Link>
            </div>
          </Form.Item>
        )}
        <AmountField
          label={t('withdraw.amount')}
          placeholder={t('withdraw.amountPlaceholder', { minimum: trimMoney(settings.minimum) })}
          description={t('withdraw.limits', {
            minimum: displayMoney(settings.minimum),
            maximum: displayMoney(settings.maximum),
            remaining: displayMoney(dailyRemaining(index)),
          })}
          check={(value) => {
            const checked = previewWithdrawal(value, index, currentLocale());
            return 'problem' in checked ? checked.problem : null;
          }}
          onAll={() => {
            const all = withdrawableNow(index);
            form.setFieldValue('amount', money.isPositive(all) ? trimMoney(money.formatMoney(all)) : '');
            void form.validateFields(['amount']).catch(() => undefined);
          }}
        />
        <Form.Item label={t('withdraw.quote')} className="withdraw-quote">
          <QuoteRow
            label={t(fee.key, { fixed: trimMoney(settings.feeFixed), rate: percentOf(settings.feeRate) })}
            value={quote ? `${displayMoney(quote.fee)} USDT` : dash}
            testId="withdraw-fee"
          />
          <QuoteRow
            label={t('withdraw.receive')}
            value={quote ? `${displayMoney(quote.received)} USDT` : dash}
            testId="withdraw-receive"
          />
        </Form.Item>
        <TradePasswordField />
        {index.requiresAuthenticator && <GoogleCodeField testId="withdraw-google-code" />}
      </Form>
      <p className="money-note">{t('withdraw.feeNote')}</p>
      <div className="money-links">
        <Link to={WITHDRAW_RECORDS_PATH} data-testid="withdraw-records-link">
          {t('routes.withdrawRecord')}
        </Link>
      </div>
    </div>
  );
}
