import { useTranslation } from '../../../lib/i18n/translator';
import {
  contractBelowStopOut,
  contractMarginLevel,
  type ContractOrder,
  type ContractPendingInfo,
  type ContractProduct,
} from '@custos/contract';
import { displayMoney, displaySigned } from '../../../lib/format/money';
import { liveAccount, pnlDirection } from '../contracts';

/**
 * My contract account now: free margin (the USDT a new order's margin comes from), margin held,
 * floating P&L and equity at the latest quotes, and the margin level against the stop-out level.
 */
export function AccountSummary({
  info,
  orders,
  products,
}: {
  info: ContractPendingInfo;
  orders: readonly ContractOrder[];
  products: readonly ContractProduct[];
}) {
  const { t } = useTranslation();
  const live = liveAccount(info, orders, products);
  const level = orders.length === 0 ? null : contractMarginLevel(live.equity, info.usedMargin);
  const atRisk = level !== null && contractBelowStopOut(level, info.marginCallLevelPct);
  return (
    <section className="otc-guide contracts-account" data-testid="contracts-account">
      <div className="otc-guide-label">{t('contracts.account.freeMargin')}</div>
      <div className="otc-guide-price" data-testid="contracts-free-margin">
        {displayMoney(info.freeMargin)} <span className="otc-unit">USDT</span>
      </div>
      <div className="contracts-account-grid">
        <span>{t('contracts.account.usedMargin')}</span>
        <span data-testid="contracts-used-margin">{displayMoney(info.usedMargin)}</span>
        <span>{t('contracts.account.floatingPnl')}</span>
        <span className={`contracts-pnl-${pnlDirection(live.floatingPnl)}`} data-testid="contracts-floating-pnl">
          {displaySigned(live.floatingPnl)}
        </span>
        <span>{t('contracts.account.equity')}</span>
        <span data-testid="contracts-equity">{displayMoney(live.equity)}</span>
        <span>{t('contracts.account.marginLevel')}</span>
        <span className={atRisk ? 'contracts-at-risk' : undefined} data-testid="contracts-margin-level">
          {level === null ? '—' : `${level}%`}
        </span>
      </div>
      <div className="otc-guide-band" data-testid="contracts-stop-out">
        {t('contracts.account.stopOut', { level: info.stopOutLevelPct })}
      </div>
    </section>
  );
}
