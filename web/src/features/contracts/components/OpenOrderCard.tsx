import { Button } from 'antd-mobile';
import { useTranslation } from '../../../lib/i18n/translator';
import type { ContractOrder, ContractProduct } from '@custos/contract';
import { displaySigned } from '../../../lib/format/money';
import { displayPrice, liveOrder } from '../contracts';
import { CommonFigures, Figure, OrderHead, Pnl } from './OrderFigures';

/**
 * An open order: what it is, the price it would close at now and its floating P&L (swap included),
 * both following every quote; its take-profit and stop-loss; close and edit.
 */
export function OpenOrderCard({
  order,
  product,
  onClose,
  onEditTargets,
}: {
  order: ContractOrder;
  product: ContractProduct | undefined;
  onClose: () => void;
  onEditTargets: () => void;
}) {
  const { t } = useTranslation();
  const live = liveOrder(order, product);
  return (
    <div className="contracts-order" data-testid="contract-open-order" data-order-no={order.orderNo} data-side={order.side}>
      <OrderHead order={order} extra={<Pnl value={live.pnl} testId="contract-order-pnl" />} />
      <div className="contracts-figures">
        <CommonFigures order={order} />
        <Figure label={t('contracts.order.currentPrice')} testId="contract-order-current-price">
          {displayPrice(live.closePrice)}
        </Figure>
        {(product?.swapEnabled || !/^-?0\.0000$/.test(order.swap)) && (
          <Figure label={t('contracts.order.swap')} testId="contract-order-swap">
            {displaySigned(order.swap)}
          </Figure>
        )}
        <Figure label={t('contracts.order.takeProfit')} testId="contract-order-tp">
          {displayPrice(order.takeProfit)}
        </Figure>
        <Figure label={t('contracts.order.stopLoss')} testId="contract-order-sl">
          {displayPrice(order.stopLoss)}
        </Figure>
      </div>
      <div className="contracts-order-actions">
        <Button size="small" fill="outline" onClick={onEditTargets} data-testid="contract-order-edit-targets">
          {t('contracts.order.editTpSl')}
        </Button>
        <Button size="small" color="primary" onClick={onClose} data-testid="contract-order-close">
          {t('contracts.order.close')}
        </Button>
      </div>
    </div>
  );
}
