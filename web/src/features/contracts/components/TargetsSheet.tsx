import { useRef, useState } from 'react';
import { Button, Form, Input, Popup } from 'antd-mobile';
import type { RuleObject } from 'antd-mobile/es/components/form';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n/translator';
import { contractClosePrice, type ContractOrder, type ContractProduct } from '@custos/contract';
import { QuoteRow } from '../../../components/QuoteRow';
import { currentLocale } from '../../../lib/i18n/i18n';
import { showToast } from '../../../lib/toast';
import { contractKeys } from '../api/keys';
import { setContractTargets } from '../api/set-targets';
import { displayPrice, targetProblems } from '../contracts';

interface TargetValues {
  takeProfit?: string;
  stopLoss?: string;
}

const normaliseDecimal = (value: string | undefined) => (value ?? '').replace(/,/g, '.').replace(/\s+/g, '');

/** An open order's take-profit and stop-loss, each checked against the price it would close at now; empty removes one. */
export function TargetsSheet({
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
  const [form] = Form.useForm<TargetValues>();
  const [busy, setBusy] = useState(false);
  const sending = useRef(false);
  const quote = product && product.bid !== null && product.ask !== null ? { bid: product.bid, ask: product.ask } : null;

  // Each target on its own against the price the order would close at (the other is checked by its own field).
  const rule = (field: 'takeProfit' | 'stopLoss') => ({
    validator: async (_rule: RuleObject, value: string | undefined) => {
      const targets = { takeProfit: '', stopLoss: '', [field]: normaliseDecimal(value) };
      const problem = targetProblems(order.side, quote, order, targets, locale)[field];
      return problem ? Promise.reject(new Error(problem)) : undefined;
    },
  });

  const submit = async (values: TargetValues) => {
    if (sending.current) return;
    sending.current = true;
    setBusy(true);
    try {
      await setContractTargets({
        orderId: order.id,
        takeProfit: normaliseDecimal(values.takeProfit) || null,
        stopLoss: normaliseDecimal(values.stopLoss) || null,
      });
      showToast(t('contracts.tpsl.saved'));
      onClose();
    } catch {
      // The server's refusal has been shown (the price moved past a target, the order closed meanwhile).
    } finally {
      sending.current = false;
      setBusy(false);
      void queryClient.invalidateQueries({ queryKey: contractKeys.all });
    }
  };

  return (
    <Popup visible onMaskClick={onClose} onClose={onClose} destroyOnClose bodyClassName="otc-sheet">
      <div data-testid="contract-targets-sheet" data-order-no={order.orderNo}>
        <h3 className="otc-sheet-title">{t('contracts.tpsl.title', { no: order.orderNo })}</h3>
        <QuoteRow
          label={t('contracts.order.currentPrice')}
          value={quote ? displayPrice(contractClosePrice(order.side, quote)) : '—'}
          testId="contract-targets-price"
        />
        <Form
          form={form}
          layout="vertical"
          initialValues={{ takeProfit: order.takeProfit ?? '', stopLoss: order.stopLoss ?? '' }}
          onFinish={(values: TargetValues) => void submit(values)}
          footer={
            <Button block type="submit" color="primary" size="large" loading={busy} data-testid="contract-targets-save">
              {t('contracts.tpsl.save')}
            </Button>
          }
        >
          <Form.Item
            name="takeProfit"
            label={t('contracts.order.takeProfit')}
            normalize={(value: string | undefined) => normaliseDecimal(value)}
            rules={[rule('takeProfit')]}
          >
            <Input
              inputMode="decimal"
              autoComplete="off"
              placeholder={t('contracts.open.pricePlaceholder')}
              data-testid="contract-targets-tp"
            />
          </Form.Item>
          <Form.Item
            name="stopLoss"
            label={t('contracts.order.stopLoss')}
            normalize={(value: string | undefined) => normaliseDecimal(value)}
            rules={[rule('stopLoss')]}
          >
            <Input
              inputMode="decimal"
              autoComplete="off"
              placeholder={t('contracts.open.pricePlaceholder')}
              data-testid="contract-targets-sl"
            />
          </Form.Item>
        </Form>
        <p className="money-note">{t('contracts.tpsl.hint')}</p>
      </div>
    </Popup>
  );
}
