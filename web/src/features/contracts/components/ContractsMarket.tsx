import { useState } from 'react';
import { Button, DotLoading, NoticeBar } from 'antd-mobile';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n/translator';
import { useNavigate } from '../../../lib/router/router';
import type { ContractSide } from '@custos/contract';
import { getContractPendingInfo } from '../api/get-pending-info';
import { contractKeys } from '../api/keys';
import { listPendingContractOrders } from '../api/list-pending';
import { listContractProducts } from '../api/list-products';
import { CONTRACT_ORDERS_PATH } from '../paths';
import { QUOTES_FALLBACK_REFETCH_MS, useQuoteStream } from '../use-quote-stream';
import { AccountSummary } from './AccountSummary';
import { CloseSheet } from './CloseSheet';
import { OpenOrderCard } from './OpenOrderCard';
import { OpenSheet } from './OpenSheet';
import { ProductCard } from './ProductCard';
import { TargetsSheet } from './TargetsSheet';

/** Products are read again this often even while quotes stream (trading hours, staleness, settings). */
const PRODUCTS_REFETCH_MS = 15_000;

/**
 * The contracts segment of the Trade tab (decision 035): my contract account, the operator's forex
 * products with live bid and ask, and my open orders with their floating P&L following every quote.
 * Buy and sell open a sheet with a preview of what the order holds; each open order closes (fully
 * or partly) and takes its take-profit and stop-loss in sheets of their own.
 */
export function ContractsMarket() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const streaming = useQuoteStream();
  const products = useQuery({
    queryKey: contractKeys.products(),
    queryFn: listContractProducts,
    refetchInterval: streaming ? PRODUCTS_REFETCH_MS : QUOTES_FALLBACK_REFETCH_MS,
  });
  const info = useQuery({ queryKey: contractKeys.info(), queryFn: getContractPendingInfo });
  const pending = useQuery({ queryKey: contractKeys.pending(), queryFn: listPendingContractOrders });
  const [opening, setOpening] = useState<{ productId: string; side: ContractSide } | null>(null);
  // Ids, not copies: the sheets follow the order as it is now (a take-profit may close it meanwhile).
  const [closingId, setClosingId] = useState<string | null>(null);
  const [editingId, setEditingId] = useState<string | null>(null);

  if (!products.data || !info.data || !pending.data) {
    const failed = products.isError || info.isError || pending.isError;
    return failed ? (
      <div className="recharge-failed" data-testid="contracts-failed">
        <span>{t('records.loadFailed')}</span>{' '}
        <button
          type="button"
          className="link-button"
          onClick={() => {
            void products.refetch();
            void info.refetch();
            void pending.refetch();
          }}
        >
          {t('records.retry')}
        </button>
      </div>
    ) : (
      <div className="page-loading">
        <DotLoading color="primary" />
      </div>
    );
  }
  const items = products.data.items;
  const byId = new Map(items.map((product) => [product.id, product]));
  const orders = pending.data.items;
  const closing = orders.find((order) => order.id === closingId);
  const editing = orders.find((order) => order.id === editingId);

  return (
    <div className="contracts-screen" data-testid="contracts-market">
      <AccountSummary info={info.data} orders={orders} products={items} />
      {!info.data.enabled && (
        <NoticeBar content={t('contracts.tradingClosed')} color="alert" wrap data-testid="contracts-disabled" />
      )}
      <div className="otc-links">
        <Button size="small" fill="outline" onClick={() => void navigate(CONTRACT_ORDERS_PATH)} data-testid="contracts-records">
          {t('contracts.records')}
        </Button>
      </div>

      <h3 className="contracts-heading">{t('contracts.products')}</h3>
      <div className="contracts-products" data-testid="contracts-products">
        {items.map((product) => (
          <ProductCard
            key={product.id}
            product={product}
            tradingEnabled={info.data.enabled}
            onOpen={(side) => setOpening({ productId: product.id, side })}
          />
        ))}
      </div>

      <h3 className="contracts-heading">
        {t('contracts.openOrders')} <span data-testid="contracts-open-count">{orders.length}</span>
      </h3>
      <div className="contracts-orders" data-testid="contracts-open-orders">
        {orders.length === 0 && <div className="contracts-empty">{t('contracts.noOpenOrders')}</div>}
        {orders.map((order) => (
          <OpenOrderCard
            key={order.id}
            order={order}
            product={byId.get(order.productId)}
            onClose={() => setClosingId(order.id)}
            onEditTargets={() => setEditingId(order.id)}
          />
        ))}
      </div>

      {opening && byId.get(opening.productId) && (
        <OpenSheet
          product={byId.get(opening.productId)!}
          initialSide={opening.side}
          freeMargin={info.data.freeMargin}
          onClose={() => setOpening(null)}
        />
      )}
      {closing && <CloseSheet order={closing} product={byId.get(closing.productId)} onClose={() => setClosingId(null)} />}
      {editing && <TargetsSheet order={editing} product={byId.get(editing.productId)} onClose={() => setEditingId(null)} />}
    </div>
  );
}
