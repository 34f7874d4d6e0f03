import { useCallback, useEffect, useState } from 'react';
import { Button, Dialog, DotLoading, ErrorBlock, Steps, Tabs, Tag } from 'antd-mobile';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n/translator';
import { useSearchParams } from '../../../lib/router/router';
import type { OtcOrderDetail } from '@custos/contract';
import { assetKeys } from '../../../api/keys';
import { QuoteRow } from '../../../components/QuoteRow';
import { ChatImage } from '../../../components/chat/ChatImage';
import { displayMoney } from '../../../lib/format/money';
import { formatDateTime } from '../../../lib/format/time';
import { showToast } from '../../../lib/toast';
import { buyerCancel } from '../api/buyer-cancel';
import { confirmPay } from '../api/confirm-pay';
import { getOrder } from '../api/get-order';
import { otcKeys } from '../api/keys';
import { sellerCancel } from '../api/seller-cancel';
import { AppealSheet } from '../components/AppealSheet';
import { OrderChat } from '../components/OrderChat';
import { OrderTrail } from '../components/OrderTrail';
import { PaymentDetails } from '../components/PaymentDetails';
import { ReleaseSheet } from '../components/ReleaseSheet';
import { TraderLine } from '../components/TraderLine';
import { formatCountdown, useCountdown } from '../countdown';
import { orderClock, orderProgress } from '../otc';
import { useOtcInfo } from '../use-otc-info';
import { ORDER_STATE_COLOURS } from '../order-state-colours';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The order's clock: time to pay, time for the seller to release, or frozen by an appeal. */
function OrderClockLine({
  order,
  clockOffsetMs,
  onElapsed,
}: {
  order: OtcOrderDetail;
  clockOffsetMs: number;
  onElapsed: () => void;
}) {
  const { t } = useTranslation();
  const clock = orderClock(order);
  const remaining = useCountdown(clock?.deadline ?? null, clockOffsetMs);
  const elapsed = remaining === 0;
  // The platform's timer acts at the deadline (cancels, or opens appeals): ask for the order again.
  useEffect(() => {
    if (elapsed) onElapsed();
  }, [elapsed, onElapsed]);
  if (!clock) return null;
  if (clock.kind === 'appeal') {
    return (
      <div className="otc-clock otc-clock-frozen" data-testid="otc-frozen">
        {t('otc.order.appealFrozen')}
      </div>
    );
  }
  return (
    <div className="otc-clock">
      <span>{clock.kind === 'pay' ? t('otc.order.payWithin') : t('otc.order.releaseWithin')}</span>{' '}
      <span className="otc-countdown" data-testid="otc-countdown" data-kind={clock.kind}>
        {formatCountdown(remaining ?? 0)}
      </span>
    </div>
  );
}

/** What the viewer is waiting for, or must check, at this step. */
function StatusHint({ order }: { order: OtcOrderDetail }) {
  const { t } = useTranslation();
  const buyer = order.myRole === 'buyer';
  let text: string | null = null;
  if (order.state === 'pending_payment' && buyer) {
    text = t('otc.order.payToHint', { amount: order.fiatAmount, currency: order.fiatCurrency });
  } else if (order.state === 'pending_payment') text = t('otc.order.waitForPayment');
  else if (order.state === 'paid') text = buyer ? t('otc.order.waitForRelease') : t('otc.order.checkPayment');
  return text ? (
    <p className="otc-status-hint" data-testid="otc-status-hint">
      {text}
    </p>
  ) : null;
}

function OrderDetails({ order, clockOffsetMs }: { order: OtcOrderDetail; clockOffsetMs: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const info = useOtcInfo();
  const [sheet, setSheet] = useState<'release' | 'appeal' | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const progress = orderProgress(order.state);
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: otcKeys.all });
    void queryClient.invalidateQueries({ queryKey: assetKeys.all });
  };
  const orderId = order.id;
  const refetchOrder = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: otcKeys.order(orderId) }),
    [queryClient, orderId],
  );
  const appealCountdown = useCountdown(
    order.state === 'paid' && !order.actions.appeal ? order.appealAllowedAt : null,
    clockOffsetMs,
  );

  const act = (name: string, confirm: string, call: (id: string) => Promise<unknown>, done: string) => {
    void Dialog.confirm({ content: confirm, confirmText: t('common.confirm'), cancelText: t('common.cancel') }).then((yes) => {
      if (!yes) return;
      setBusy(name);
      call(order.id)
        .then(
          () => showToast(done),
          // The server's refusal (window passed, state moved on) has been shown.
          () => undefined,
        )
        .finally(() => {
          setBusy(null);
          refresh();
        });
    });
  };

  return (
    <div className="otc-order" data-testid="otc-order" data-state={order.state} data-role={order.myRole}>
      <section className="otc-order-head">
        <div className="otc-order-head-line">
          <Tag color={ORDER_STATE_COLOURS[order.state]} data-testid="otc-order-state" data-state={order.state}>
            {t(`otc.orderStates.${order.state}`)}
          </Tag>
          <Tag color={order.myRole === 'buyer' ? 'success' : 'danger'} fill="outline" data-testid="otc-order-role">
            {t(`otc.roles.${order.myRole}`)}
          </Tag>
        </div>
        <OrderClockLine order={order} clockOffsetMs={clockOffsetMs} onElapsed={refetchOrder} />
        {order.state === 'cancelled' && order.cancelReason && (
          <div className="otc-cancel-reason" data-testid="otc-cancel-reason">
            {t(`otc.cancelReasons.${order.cancelReason}`)}
          </div>
        )}
        <div className="otc-order-fiat" data-testid="otc-order-fiat">
          {order.fiatAmount} <span className="otc-unit">{order.fiatCurrency}</span>
        </div>
      </section>

      <Steps current={progress.current} className="otc-steps" data-testid="otc-steps">
        <Steps.Step title={t('otc.order.stepPay')} status={progress.current === 0 ? progress.status : 'finish'} />
        <Steps.Step
          title={t('otc.order.stepRelease')}
          status={progress.current === 1 ? progress.status : progress.current > 1 ? 'finish' : 'wait'}
        />
        <Steps.Step title={t('otc.order.stepDone')} status={progress.current === 2 ? progress.status : 'wait'} />
      </Steps>

      <StatusHint order={order} />

      {order.paymentMethods.length > 0 && (
        <section className="withdraw-section" data-testid="otc-pay-to">
          <div className="withdraw-label">{t('otc.order.payTo')}</div>
          <PaymentDetails methods={order.paymentMethods} />
        </section>
      )}

      <div className="otc-actions" data-testid="otc-actions">
        {order.actions.confirmPay && (
          <Button
            color="success"
            loading={busy === 'pay'}
            onClick={() =>
              act(
                'pay',
                t('otc.order.paidConfirm', { amount: order.fiatAmount, currency: order.fiatCurrency }),
                confirmPay,
                t('otc.order.paidDone'),
              )
            }
            data-testid="otc-confirm-pay"
          >
            {t('otc.order.paid')}
          </Button>
        )}
        {order.actions.release && (
          <Button color="danger" onClick={() => setSheet('release')} data-testid="otc-release">
            {t('otc.order.release')}
          </Button>
        )}
        {(order.actions.buyerCancel || order.actions.sellerCancel) && (
          <Button
            fill="outline"
            loading={busy === 'cancel'}
            onClick={() =>
              act(
                'cancel',
                t('otc.order.cancelConfirm'),
                order.actions.buyerCancel ? buyerCancel : sellerCancel,
                t('otc.order.cancelled'),
              )
            }
            data-testid="otc-cancel"
          >
            {t('otc.order.cancel')}
          </Button>
        )}
        {order.actions.appeal && (
          <Button color="warning" fill="outline" onClick={() => setSheet('appeal')} data-testid="otc-appeal">
            {t('otc.order.appeal')}
          </Button>
        )}
        {!order.actions.appeal && appealCountdown !== null && appealCountdown > 0 && (
          <Button fill="outline" disabled data-testid="otc-appeal-later">
            {t('otc.order.appealFrom', { time: formatCountdown(appealCountdown) })}
          </Button>
        )}
      </div>

      <section className="withdraw-section" data-testid="otc-order-figures">
        <QuoteRow label={t('otc.amount')} value={`${displayMoney(order.amount)} USDT`} testId="otc-order-amount" />
        <QuoteRow label={t('otc.price')} value={`${displayMoney(order.price)} ${order.fiatCurrency}`} testId="otc-order-price" />
        <QuoteRow label={t('otc.total')} value={`${order.fiatAmount} ${order.fiatCurrency}`} testId="otc-order-total" />
        <QuoteRow label={t('otc.fee')} value={`${displayMoney(order.fee)} USDT`} testId="otc-order-fee" />
        <QuoteRow
          label={t('otc.buyerReceives')}
          value={`${displayMoney(order.buyerReceives)} USDT`}
          testId="otc-order-receives"
        />
        <QuoteRow label={t('otc.orderNumber')} value={order.orderNo} testId="otc-order-no" />
        <QuoteRow label={t('otc.createdAt')} value={formatDateTime(order.createdAt)} testId="otc-order-created" />
      </section>

      <section className="withdraw-section" data-testid="otc-counterparty">
        <div className="withdraw-label">{t('otc.counterparty')}</div>
        <TraderLine trader={order.counterparty} testId="otc-counterparty-trader" />
      </section>

      {order.appeals.length > 0 && (
        <section className="withdraw-section" data-testid="otc-appeals">
          <div className="withdraw-label">{t('otc.order.appeals')}</div>
          {order.appeals.map((appeal) => (
            <div key={appeal.id} className="otc-appeal" data-testid="otc-appeal-item" data-status={appeal.status}>
              <div>
                <Tag color={appeal.status === 'open' ? 'warning' : 'success'}>
                  {appeal.status === 'open' ? t('otc.appeal.open') : t('otc.appeal.ruled')}
                </Tag>{' '}
                {t('otc.appeal.by', { role: t(`otc.actors.${appeal.by}`) })} · {formatDateTime(appeal.createdAt)}
              </div>
              <div>{t(`otc.appeal.reasons.${appeal.reason}`)}</div>
              <div className="otc-appeal-description">{appeal.description}</div>
              <div className="feedback-thumbs">
                {appeal.imageIds.map((uploadId) => (
                  <ChatImage
                    key={uploadId}
                    path={`/api/otc/evidence_image?id=${encodeURIComponent(order.id)}&uploadId=${encodeURIComponent(uploadId)}`}
                    testId="otc-evidence-image"
                  />
                ))}
              </div>
              {appeal.ruling && (
                <div data-testid="otc-ruling">
                  {t(`otc.appeal.rulings.${appeal.ruling}`)}
                  {appeal.rulingNote ? ` · ${t('otc.appeal.note')}: ${appeal.rulingNote}` : ''}
                </div>
              )}
            </div>
          ))}
        </section>
      )}

      <section className="withdraw-section">
        <div className="withdraw-label">{t('otc.trail')}</div>
        <OrderTrail items={order.trail} stepKey="orderSteps" />
      </section>

      {order.terms && (
        <section className="withdraw-section otc-terms">
          <div className="withdraw-label">{t('otc.take.terms')}</div>
          <div>{order.terms}</div>
        </section>
      )}

      {sheet === 'release' && (
        <ReleaseSheet
          order={order}
          requiresAuthenticator={info.data?.me.requiresAuthenticator ?? false}
          onClose={() => setSheet(null)}
        />
      )}
      {sheet === 'appeal' && <AppealSheet orderId={order.id} role={order.myRole} onClose={() => setSheet(null)} />}
    </div>
  );
}

/**
 * order_detail?id=: one of my OTC orders. Parties, figures, the seller's payment details (to the
 * buyer while open), the countdown, the steps, the actions that apply, the appeals and the trail,
 * and the order's chat. Every step of either party arrives on the live channel (`otc.order`) and
 * refreshes this screen without a reload.
 */
export default function OrderDetailScreen() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const valid = UUID.test(id);
  const [tab, setTab] = useState('details');
  const order = useQuery({ queryKey: otcKeys.order(id), queryFn: () => getOrder(id), enabled: valid });

  if (!valid || (!order.data && order.isError)) {
    return (
      <ErrorBlock
        status="empty"
        className="record-empty"
        title={t('otc.order.notFound')}
        description=""
        data-testid="otc-order-missing"
      />
    );
  }
  if (!order.data) {
    return (
      <div className="page-loading">
        <DotLoading color="primary" />
      </div>
    );
  }
  // How far the server's clock runs ahead of this device's, for the countdown.
  const clockOffsetMs = Date.parse(order.data.serverTime) - order.dataUpdatedAt;
  return (
    <div className="otc-order-screen">
      <Tabs activeKey={tab} onChange={setTab} className="otc-order-tabs">
        <Tabs.Tab key="details" title={<span data-testid="otc-tab-details">{t('otc.order.details')}</span>}>
          <OrderDetails order={order.data} clockOffsetMs={clockOffsetMs} />
        </Tabs.Tab>
        <Tabs.Tab key="chat" title={<span data-testid="otc-tab-chat">{t('otc.order.chat')}</span>}>
          <OrderChat orderId={order.data.id} />
        </Tabs.Tab>
      </Tabs>
    </div>
  );
}
