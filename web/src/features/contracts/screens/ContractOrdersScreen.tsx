import { useCallback } from 'react';
import { DotLoading, Segmented, Tag } from 'antd-mobile';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n/translator';
import { useNavigate, useSearchParams } from '../../../lib/router/router';
import type { ContractOrder, ContractOrderState } from '@custos/contract';
import { PagedList } from '../../../components/lists/PagedList';
import { displaySigned } from '../../../lib/format/money';
import { formatDateTime } from '../../../lib/format/time';
import { usePagedQuery } from '../../../lib/paging/use-paged-query';
import { contractKeys } from '../api/keys';
import { listClosedContractOrders } from '../api/list-closed';
import { listPendingContractOrders } from '../api/list-pending';
import { listContractProducts } from '../api/list-products';
import { OpenOrderCard } from '../components/OpenOrderCard';
import { CommonFigures, Figure, OrderHead, Pnl } from '../components/OrderFigures';
import { displayPrice } from '../contracts';
import { QUOTES_FALLBACK_REFETCH_MS, useQuoteStream } from '../use-quote-stream';
import { CONTRACTS_SEGMENT_PATH } from '../paths';

/** A closed order (or a closed part of one): how it closed, at what price and when, and what it realised. */
function ClosedOrderRow({ order }: { order: ContractOrder }) {
  const { t } = useTranslation();
  return (
    <div
      className="contracts-order"
      data-testid="contract-closed-order"
      data-order-no={order.orderNo}
      data-side={order.side}
      data-close-reason={order.closeReason ?? ''}
    >
      <OrderHead
        order={order}
        extra={
          order.closeReason && (
            <Tag color={order.closeReason === 'member' ? 'default' : 'warning'} data-testid="contract-order-close-reason">
              {t(`contracts.closeReasons.${order.closeReason}`)}
            </Tag>
          )
        }
      />
      <div className="contracts-figures">
        <CommonFigures order={order} />
        <Figure label={t('contracts.order.closePrice')} testId="contract-order-close-price">
          {displayPrice(order.closePrice)}
        </Figure>
        <Figure label={t('contracts.order.closedAt')} testId="contract-order-closed-at">
          {order.closedAt ? formatDateTime(order.closedAt) : '—'}
        </Figure>
        {!/^-?0\.0000$/.test(order.swap) && (
          <Figure label={t('contracts.order.swap')} testId="contract-order-swap">
            {displaySigned(order.swap)}
          </Figure>
        )}
        <Figure label={t('contracts.order.realisedPnl')} testId="contract-order-realised">
          <Pnl value={order.pnl} testId="contract-order-pnl" />
        </Figure>
      </div>
      {order.parentOrderNo && (
        <div className="contracts-note" data-testid="contract-order-parent">
          {t('contracts.order.partOf', { no: order.parentOrderNo })}
        </div>
      )}
      {order.closeNote && (
        <div className="contracts-note" data-testid="contract-order-close-note">
          {order.closeNote}
        </div>
      )}
    </div>
  );
}

/** My open orders, live at the latest quotes; closing and targets are on the Trade tab's contracts segment. */
function OpenOrders() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const streaming = useQuoteStream();
  const products = useQuery({
    queryKey: contractKeys.products(),
    queryFn: listContractProducts,
    refetchInterval: streaming ? false : QUOTES_FALLBACK_REFETCH_MS,
  });
  const pending = useQuery({ queryKey: contractKeys.pending(), queryFn: listPendingContractOrders });
  if (!pending.data) {
    return (
      <div className="page-loading">
        <DotLoading color="primary" />
      </div>
    );
  }
  const byId = new Map((products.data?.items ?? []).map((product) => [product.id, product]));
  const trade = () => void navigate(CONTRACTS_SEGMENT_PATH);
  return (
    <div className="contracts-orders" data-testid="contract-records-open">
      {pending.data.items.length === 0 && <div className="contracts-empty">{t('contracts.noOpenOrders')}</div>}
      {pending.data.items.map((order) => (
        <OpenOrderCard key={order.id} order={order} product={byId.get(order.productId)} onClose={trade} onEditTargets={trade} />
      ))}
    </div>
  );
}

function ClosedOrders() {
  const fetchPage = useCallback((page: number, pageSize: number) => listClosedContractOrders({ page, pageSize }), []);
  // A close (by me, a trigger, stop-out or an operator) sends `contracts.order`, which invalidates the domain.
  const list = usePagedQuery(contractKeys.orders('closed'), fetchPage);
  return (
    <PagedList
      {...list}
      testId="contract-records-closed"
      renderItem={(order) => <ClosedOrderRow key={order.id} order={order} />}
    />
  );
}

/** blance_record12: my contract (settlement) orders, open and closed (`?state=closed` preselects closed). */
export default function ContractOrdersScreen() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const state: ContractOrderState = params.get('state') === 'closed' ? 'closed' : 'open';
  return (
    <div className="records-screen contracts-records">
      <div className="otc-segment">
        <Segmented
          block
          value={state}
          onChange={(value) => setParams(value === 'closed' ? { state: 'closed' } : {}, { replace: true })}
          options={[
            { value: 'open', label: <span data-testid="contract-records-tab-open">{t('contracts.states.open')}</span> },
            { value: 'closed', label: <span data-testid="contract-records-tab-closed">{t('contracts.states.closed')}</span> },
          ]}
          data-testid="contract-records-state"
        />
      </div>
      {state === 'open' ? <OpenOrders /> : <ClosedOrders />}
    </div>
  );
}
