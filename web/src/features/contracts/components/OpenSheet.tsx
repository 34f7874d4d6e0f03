import { useRef, useState } from 'react';
import { Button, Form, Input, Popup, Segmented, Selector } from 'antd-mobile';
import type { RuleObject } from 'antd-mobile/es/components/form';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n/translator';
import { contractOpenPrice, type ContractProduct, type ContractSide } from '@custos/contract';
import { assetKeys } from '../../../api/keys';
import { QuoteRow } from '../../../components/QuoteRow';
import { displayMoney } from '../../../lib/format/money';
import { currentLocale } from '../../../lib/i18n/i18n';
import { IdempotencyKeyHolder } from '../../../lib/money/idempotency';
import { showToast } from '../../../lib/toast';
import { contractKeys } from '../api/keys';
import { openContractOrder } from '../api/open-order';
import { displayLots, displayPrice, lotsProblem, marginProblem, openPreview, targetProblems } from '../contracts';

interface OpenValues {
  lots?: string;
  leverage?: number[];
  takeProfit?: string;
  stopLoss?: string;
}

const normaliseDecimal = (value: string | undefined) => (value ?? '').replace(/,/g, '.').replace(/\s+/g, '');

/**
 * Opening an order: buy (at the ask) or sell (at the bid), lots within the product's limits and
 * step, a leverage it offers, an optional take-profit and stop-loss on the right side of the price;
 * before confirming, the margin it holds, the spread's cost and the free margin left, all at the
 * live quote and by the contract's formulas (the server checks everything again).
 */
export function OpenSheet({
  product,
  initialSide,
  freeMargin,
  onClose,
}: {
  product: ContractProduct;
  initialSide: ContractSide;
  freeMargin: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const locale = currentLocale();
  const [form] = Form.useForm<OpenValues>();
  const [side, setSide] = useState<ContractSide>(initialSide);
  const [busy, setBusy] = useState(false);
  const sending = useRef(false);
  // One key per sheet; a lost answer keeps it, so a second tap cannot open two orders.
  const [keys] = useState(() => new IdempotencyKeyHolder());
  const lots = normaliseDecimal(Form.useWatch('lots', form));
  const leverage = Form.useWatch('leverage', form)?.[0] ?? product.leverages[0] ?? 1;
  const quote = product.bid !== null && product.ask !== null ? { bid: product.bid, ask: product.ask } : null;
  const preview = openPreview(product, side, lots, leverage, freeMargin);

  // Each target on its own against the price the order would close at (the other is checked by its own field).
  const targetRule = (field: 'takeProfit' | 'stopLoss') => ({
    validator: async (_rule: RuleObject, value: string | undefined) => {
      const targets = { takeProfit: '', stopLoss: '', [field]: normaliseDecimal(value) };
      const problem = targetProblems(side, quote, product, targets, locale)[field];
      return problem ? Promise.reject(new Error(problem)) : undefined;
    },
  });

  const submit = async (values: OpenValues) => {
    if (sending.current) return;
    sending.current = true;
    setBusy(true);
    try {
      const order = await openContractOrder({
        productId: product.id,
        side,
        lots: normaliseDecimal(values.lots),
        leverage: values.leverage?.[0] ?? leverage,
        takeProfit: normaliseDecimal(values.takeProfit) || null,
        stopLoss: normaliseDecimal(values.stopLoss) || null,
        idempotencyKey: keys.current,
      });
      keys.succeeded();
      showToast(t('contracts.open.opened', { no: order.orderNo }));
      onClose();
    } catch (error) {
      // The server's refusal has been shown (margin, hours, a stale price, the targets against a newer price).
      keys.failed(error);
    } finally {
      sending.current = false;
      setBusy(false);
      void queryClient.invalidateQueries({ queryKey: contractKeys.all });
      void queryClient.invalidateQueries({ queryKey: assetKeys.all });
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
      <div data-testid="contract-open-sheet" data-symbol={product.symbol} data-side={side}>
        <h3 className="otc-sheet-title">
          {side === 'buy'
            ? t('contracts.open.buyTitle', { symbol: product.symbol })
            : t('contracts.open.sellTitle', { symbol: product.symbol })}
        </h3>
        <Segmented
          block
          value={side}
          onChange={(value) => {
            setSide(value as ContractSide);
            // The targets' sides flip with the direction: check them again.
            void form.validateFields(['takeProfit', 'stopLoss']).catch(() => undefined);
          }}
          options={[
            { value: 'buy', label: <span data-testid="contract-open-side-buy">{t('contracts.buy')}</span> },
            { value: 'sell', label: <span data-testid="contract-open-side-sell">{t('contracts.sell')}</span> },
          ]}
        />
        <QuoteRow
          label={side === 'buy' ? t('contracts.open.atAsk') : t('contracts.open.atBid')}
          value={quote ? displayPrice(contractOpenPrice(side, quote)) : '—'}
          testId="contract-open-price"
        />
        <Form
          form={form}
          layout="vertical"
          initialValues={{ lots: displayLots(product.minLots), leverage: [product.leverages[0]] }}
          onFinish={(values: OpenValues) => void submit(values)}
          footer={
            <Button
              block
              type="submit"
              color={side === 'buy' ? 'success' : 'danger'}
              size="large"
              loading={busy}
              disabled={!product.canOpen || !preview?.enough}
              data-testid="contract-open-submit"
            >
              {side === 'buy' ? t('contracts.open.confirmBuy') : t('contracts.open.confirmSell')}
            </Button>
          }
        >
          <Form.Item
            name="lots"
            label={t('contracts.open.lots')}
            normalize={(value: string | undefined) => normaliseDecimal(value)}
            rules={[
              {
                validator: async (_rule: RuleObject, value: string | undefined) => {
                  const problem = lotsProblem(normaliseDecimal(value), product, locale);
                  return problem ? Promise.reject(new Error(problem)) : undefined;
                },
              },
            ]}
          >
            <Input
              inputMode="decimal"
              autoComplete="off"
              placeholder={t('contracts.open.lotsPlaceholder', {
                min: displayLots(product.minLots),
                max: displayLots(product.maxLots),
                step: displayLots(product.lotStep),
              })}
              data-testid="contract-open-lots"
            />
          </Form.Item>
          <Form.Item name="leverage" label={t('contracts.open.leverage')}>
            <Selector
              columns={Math.min(product.leverages.length, 4)}
              options={product.leverages.map((value) => ({
                value,
                label: (
                  <span data-testid={`contract-open-leverage-${value}`}>
                    {t('contracts.order.leverageValue', { leverage: value })}
                  </span>
                ),
              }))}
              onChange={(next) => {
                // A selector can be emptied by tapping the chosen one again; a leverage is always chosen.
                if (next.length === 0) form.setFieldValue('leverage', [leverage]);
              }}
            />
          </Form.Item>
          <Form.Item
            name="takeProfit"
            label={t('contracts.open.takeProfit')}
            normalize={(value: string | undefined) => normaliseDecimal(value)}
            rules={[targetRule('takeProfit')]}
          >
            <Input
              inputMode="decimal"
              autoComplete="off"
              placeholder={t('contracts.open.pricePlaceholder')}
              data-testid="contract-open-tp"
            />
          </Form.Item>
          <Form.Item
            name="stopLoss"
            label={t('contracts.open.stopLoss')}
            normalize={(value: string | undefined) => normaliseDecimal(value)}
            rules={[targetRule('stopLoss')]}
          >
            <Input
              inputMode="decimal"
              autoComplete="off"
              placeholder={t('contracts.open.pricePlaceholder')}
              data-testid="contract-open-sl"
            />
          </Form.Item>
          <div className="contracts-preview" data-testid="contract-open-preview">
            <QuoteRow
              label={t('contracts.open.marginRequired')}
              value={preview ? `${displayMoney(preview.margin)} USDT` : '—'}
              testId="contract-open-margin"
            />
            <QuoteRow
              label={t('contracts.open.spreadCost')}
              value={preview ? `${displayMoney(preview.spreadCost)} USDT` : '—'}
              testId="contract-open-spread-cost"
            />
            <QuoteRow
              label={t('contracts.open.freeMarginAfter')}
              value={preview ? `${displayMoney(preview.freeMarginAfter)} USDT` : '—'}
              testId="contract-open-free-after"
            />
          </div>
          {marginProblem(preview, freeMargin, locale) && (
            <div className="contracts-problem" data-testid="contract-open-margin-problem">
              {marginProblem(preview, freeMargin, locale)}
            </div>
          )}
        </Form>
        <p className="money-note">{t('contracts.open.note')}</p>
      </div>
    </Popup>
  );
}
