import { Button, Tag } from 'antd-mobile';
import { useTranslation } from '../../../lib/i18n/translator';
import type { ContractProduct, ContractSide } from '@custos/contract';
import { currentLocale } from '../../../lib/i18n/i18n';
import { displayLots, displayPrice, sessionsSummary } from '../contracts';

function Change({ change }: { change: string | null }) {
  if (change === null) return <span className="quote-change quote-change-flat">—</span>;
  const direction = change.startsWith('-') ? 'down' : /[1-9]/.test(change) ? 'up' : 'flat';
  return (
    <span className={`quote-change quote-change-${direction}`} data-testid="contract-product-change" data-direction={direction}>
      {direction === 'up' ? '+' : ''}
      {change}%
    </span>
  );
}

/**
 * One forex product: the platform's bid and ask (sell at the bid, buy at the ask), today's change,
 * the spread, and what an order on it may be (contract size, lots, leverages, trading hours); closed,
 * stale or unpriced products say so and cannot be opened.
 */
export function ProductCard({
  product,
  tradingEnabled,
  onOpen,
}: {
  product: ContractProduct;
  tradingEnabled: boolean;
  onOpen: (side: ContractSide) => void;
}) {
  const { t } = useTranslation();
  const hours = sessionsSummary(product.sessions, currentLocale());
  const priced = product.bid !== null && product.ask !== null;
  const status = !priced
    ? t('contracts.noPrice')
    : !product.marketOpen
      ? t('contracts.marketClosed')
      : product.stale
        ? t('contracts.stale')
        : null;
  const canOpen = tradingEnabled && product.canOpen && priced;
  return (
    <div
      className="contracts-product"
      data-testid="contract-product"
      data-symbol={product.symbol}
      data-can-open={String(canOpen)}
    >
      <div className="contracts-product-head">
        <span className="quote-symbol">{product.symbol}</span>
        <span className="contracts-product-name">{product.displayName}</span>
        <Change change={product.changePct24h} />
        {status && (
          <Tag color="warning" fill="outline" data-testid="contract-product-status">
            {status}
          </Tag>
        )}
      </div>
      <div className="contracts-product-quotes">
        <Button
          className="contracts-quote-button"
          color="danger"
          disabled={!canOpen}
          onClick={() => onOpen('sell')}
          data-testid="contract-sell"
        >
          <span className="contracts-quote-label">{t('contracts.sell')}</span>
          <span className="contracts-quote-price" data-testid="contract-bid">
            {displayPrice(product.bid)}
          </span>
        </Button>
        <span className="contracts-spread" data-testid="contract-spread">
          {product.spreadPoints ?? '—'}
        </span>
        <Button
          className="contracts-quote-button"
          color="success"
          disabled={!canOpen}
          onClick={() => onOpen('buy')}
          data-testid="contract-buy"
        >
          <span className="contracts-quote-label">{t('contracts.buy')}</span>
          <span className="contracts-quote-price" data-testid="contract-ask">
            {displayPrice(product.ask)}
          </span>
        </Button>
      </div>
      <div className="contracts-product-terms">
        <span>
          {t('contracts.contractSize')} {product.contractSize}
        </span>
        <span>
          {t('contracts.lotsRange', {
            min: displayLots(product.minLots),
            max: displayLots(product.maxLots),
            step: displayLots(product.lotStep),
          })}
        </span>
        <span>{product.leverages.map((leverage) => t('contracts.order.leverageValue', { leverage })).join(' / ')}</span>
        <span data-testid="contract-hours">
          {t('contracts.hours')}: {hours === null ? t('contracts.hoursAlways') : `${hours} UTC`}
        </span>
      </div>
    </div>
  );
}
