import { useRef, useState } from 'react';
import { Button, Form, Input, Popup } from 'antd-mobile';
import type { RuleObject } from 'antd-mobile/es/components/form';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n/translator';
import { compareDecimal, contractClosePrice, type ContractOrder, type ContractProduct } from '@custos/contract';
import { assetKeys } from '../../../api/keys';
import { QuoteRow } from '../../../components/QuoteRow';
import { displaySigned } from '../../../lib/format/money';
import { currentLocale } from '../../../lib/i18n/i18n';
import { IdempotencyKeyHolder } from '../../../lib/money/idempotency';
import { showToast } from '../../../lib/toast';
import { closeContractOrder } from '../api/close-order';
import { contractKeys } from '../api/keys';
import { closeEstimate, closeLotsProblem, displayLots, displayPrice } from '../contracts';

const normaliseDecimal = (value: string | undefined) => (value ?? '').replace(/,/g, '.').replace(/\s+/g, '');

/**
 * Closing an order at market (a buy at the bid, a sell at the ask), all of it or a part that leaves at
 * least the product's minimum open, with the P&L it would realise at the live quote.
 */
export function CloseSheet({
  order,
  product,
  onClose,
}: {
  order: ContractOrder;
  product: ContractProduct | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const locale = currentLocale();
  const [form] = Form.useForm<{ lots?: string }>();
  const [busy, setBusy] = useState(false);
  const sending = useRef(false);
  const [keys] = useState(() => new IdempotencyKeyHolder());
  const lots = normaliseDecimal(Form.useWatch('lots', form));
  const quote = product && product.bid !== null && product.ask !== null ? { bid: product.bid, ask: product.ask } : null;
  const estimate = closeEstimate(order, product, lots);
  const limits = product ?? { minLots: order.lots, lotStep: order.lots };

  const submit = async (values: { lots?: string }) => {
    if (sending.current) return;
    sending.current = true;
    setBusy(true);
    const closing = normaliseDecimal(values.lots);
    const whole = compareDecimal(closing, order.lots) === 0;
    try {
      await closeContractOrder({ orderId: order.id, ...(whole ? {} : { lots: closing }), idempotencyKey: keys.current });
      keys.succeeded();
      showToast(
        whole
          ? t('contracts.close.closed', { no: order.orderNo })
          : t('contracts.close.partly', { no: order.orderNo, lots: displayLots(closing) }),
      );
      onClose();
    } catch (error) {
      // The server's refusal has been shown (market closed, stale price, closed meanwhile by a trigger).
      keys.failed(error);
    } finally {
      sending.current = false;
      setBusy(false);
      void queryClient.invalidateQueries({ queryKey: contractKeys.all });
      void queryClient.invalidateQueries({ queryKey: assetKeys.all });
    }
  };

  return (
    <Popup visible onMaskClick={onClose} onClose={onClose} destroyOnClose bodyClassName="otc-sheet">
      <div data-testid="contract-close-sheet" data-order-no={order.orderNo}>
        <h3 className="otc-sheet-title">{t('contracts.close.title', { no: order.orderNo })}</h3>
        <QuoteRow
          label={order.side === 'buy' ? t('contracts.close.atBid') : t('contracts.close.atAsk')}
          value={quote ? displayPrice(contractClosePrice(order.side, quote)) : '—'}
          testId="contract-close-price"
        />
        <Form
          form={form}
          layout="vertical"
          initialValues={{ lots: displayLots(order.lots) }}
          onFinish={(values: { lots?: string }) => void submit(values)}
          footer={
            <Button block type="submit" color="primary" size="large" loading={busy} data-testid="contract-close-submit">
              {t('contracts.close.confirm')}
            </Button>
          }
        >
          <Form.Item
            name="lots"
            label={t('contracts.close.lots')}
            normalize={(value: string | undefined) => normaliseDecimal(value)}
            rules={[
              {
                validator: async (_rule: RuleObject, value: string | undefined) => {
                  const problem = closeLotsProblem(normaliseDecimal(value), order, limits, locale);
                  return problem ? Promise.reject(new Error(problem)) : undefined;
                },
              },
            ]}
            extra={
              <Button
                size="mini"
                fill="none"
                color="primary"
                onClick={() => form.setFieldValue('lots', displayLots(order.lots))}
                data-testid="contract-close-all"
              >
                {t('contracts.close.all')}
              </Button>
            }
          >
            <Input inputMode="decimal" autoComplete="off" data-testid="contract-close-lots" />
          </Form.Item>
          <div className="contracts-preview">
            <QuoteRow
              label={t('contracts.close.estimate')}
              value={estimate === null ? '—' : `${displaySigned(estimate)} USDT`}
              testId="contract-close-estimate"
            />
          </div>
        </Form>
      </div>
    </Popup>
  );
}
