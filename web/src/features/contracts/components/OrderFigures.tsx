import type { ReactNode } from 'react';
import { Tag } from 'antd-mobile';
import { useTranslation } from '../../../lib/i18n/translator';
import type { ContractOrder } from '@custos/contract';
import { displayMoney, displaySigned } from '../../../lib/format/money';
import { formatDateTime } from '../../../lib/format/time';
import { displayLots, displayPrice, pnlDirection } from '../contracts';

/** One labelled figure of an order. */
export function Figure({ label, children, testId }: { label: string; children: ReactNode; testId: string }) {
  return (
    <div className="contracts-figure">
      <span className="contracts-figure-label">{label}</span>
      <span className="contracts-figure-value" data-testid={testId}>
        {children}
      </span>
    </div>
  );
}

/** The head of an order: direction, product, order number, lots and leverage. */
export function OrderHead({ order, extra }: { order: ContractOrder; extra?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="otc-order-head-line">
      <Tag
        color={order.side === 'buy' ? 'success' : 'danger'}
        fill="outline"
        data-testid="contract-order-side"
        data-side={order.side}
      >
        {t(`contracts.sides.${order.side}`)}
      </Tag>
      <span className="quote-symbol">{order.symbol}</span>
      <span className="otc-listing-no" data-testid="contract-order-no">
        {t('contracts.order.no', { no: order.orderNo })}
      </span>
      {extra}
    </div>
  );
}

/** A signed P&L, green for a gain and red for a loss. */
export function Pnl({ value, testId }: { value: string | null; testId: string }) {
  return (
    <span className={`contracts-pnl-${pnlDirection(value)}`} data-testid={testId}>
      {value === null ? '—' : displaySigned(value)}
    </span>
  );
}

/** The figures every order shows, open or closed. */
export function CommonFigures({ order }: { order: ContractOrder }) {
  const { t } = useTranslation();
  return (
    <>
      <Figure label={t('contracts.order.lots')} testId="contract-order-lots">
        {displayLots(order.lots)}
      </Figure>
      <Figure label={t('contracts.order.leverage')} testId="contract-order-leverage">
        {t('contracts.order.leverageValue', { leverage: order.leverage })}
      </Figure>
      <Figure label={t('contracts.order.openPrice')} testId="contract-order-open-price">
        {displayPrice(order.openPrice)}
      </Figure>
      <Figure label={t('contracts.order.openedAt')} testId="contract-order-opened-at">
        {formatDateTime(order.openedAt)}
      </Figure>
      <Figure label={t('contracts.order.margin')} testId="contract-order-margin">
        {displayMoney(order.margin)}
      </Figure>
      <Figure label={t('contracts.order.spread')} testId="contract-order-spread">
        {displayMoney(order.spreadCost)}
      </Figure>
    </>
  );
}
