import { useRef, useState } from 'react';
import { Button, Dialog, Form } from 'antd-mobile';
import { useTranslation } from '../../../lib/i18n/translator';
import type { HostingOrder } from '@custos/contract';
import { TradePasswordField } from '../../../components/forms/AmountField';
import { displayMoney, percentOf } from '../../../lib/format/money';
import { showToast } from '../../../lib/toast';
import { redeemHostingOrder } from '../api/redeem-hosting-order';
import { orderRedeemPreview } from '../redeem';
import { QuoteRow } from '../../../components/QuoteRow';

/**
 * What the member confirms: the principal, the penalty at the rate the order was made with and what
 * comes back, then the trading password.
 */
function RedeemContent({
  order,
  onDone,
  onCancel,
}: {
  order: HostingOrder;
  onDone: (order: HostingOrder) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ tradePassword?: string }>();
  const [busy, setBusy] = useState(false);
  const sending = useRef(false);
  const preview = orderRedeemPreview(order);

  const submit = async (values: { tradePassword?: string }) => {
    if (sending.current) return;
    sending.current = true;
    setBusy(true);
    try {
      const done = await redeemHostingOrder({ orderId: order.id, tradePassword: values.tradePassword ?? '' });
      showToast(t('hosting.redeem.done', { amount: displayMoney(done.returnedAmount ?? '0.0000') }));
      onDone(done);
    } catch {
      // The client has shown the server's message (wrong password, already ended).
    } finally {
      sending.current = false;
      setBusy(false);
    }
  };

  return (
    <div className="hosting-redeem" data-testid="hosting-redeem-dialog" data-order-id={order.id}>
      <QuoteRow
        label={t('hosting.redeem.principal')}
        value={`${displayMoney(order.amount)} USDT`}
        testId="hosting-redeem-principal"
      />
      <QuoteRow
        label={t('hosting.redeem.penalty', { rate: percentOf(preview.rate) })}
        value={`${displayMoney(preview.penalty)} USDT`}
        testId="hosting-redeem-penalty"
      />
      <QuoteRow
        label={t('hosting.redeem.returned')}
        value={`${displayMoney(preview.returned)} USDT`}
        testId="hosting-redeem-returned"
      />
      <p className="hosting-note">{t('hosting.redeem.interestKept', { amount: displayMoney(order.interestSoFar) })}</p>
      <Form
        form={form}
        layout="vertical"
        onFinish={(values: { tradePassword?: string }) => void submit(values)}
        footer={
          <div className="hosting-redeem-buttons">
            <Button block onClick={onCancel} disabled={busy} data-testid="hosting-redeem-cancel">
              {t('common.cancel')}
            </Button>
            <Button block type="submit" color="danger" loading={busy} data-testid="hosting-redeem-confirm">
              {t('hosting.redeem.confirm')}
            </Button>
          </div>
        }
      >
        <TradePasswordField />
      </Form>
    </div>
  );
}

/** The early-redemption confirmation of an active order. */
export function RedeemDialog({
  order,
  onClose,
  onDone,
}: {
  order: HostingOrder | null;
  onClose: () => void;
  onDone: (order: HostingOrder) => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog
      visible={order !== null}
      title={t('hosting.redeem.title')}
      closeOnMaskClick
      destroyOnClose
      onClose={onClose}
      content={order && <RedeemContent key={order.id} order={order} onDone={onDone} onCancel={onClose} />}
    />
  );
}
