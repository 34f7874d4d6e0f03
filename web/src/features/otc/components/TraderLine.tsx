import { useTranslation } from '../../../lib/i18n/translator';
import type { OtcReputation } from '@custos/contract';
import { completionRateText, durationParts } from '../otc';

/** A trader's nickname and reputation (30 days, computed from orders): orders, completion rate, average release time. */
export function TraderLine({ trader, testId = 'otc-trader' }: { trader: OtcReputation; testId?: string }) {
  const { t } = useTranslation();
  const rate = completionRateText(trader.completionRate30d);
  const release = trader.avgReleaseSeconds === null ? null : durationParts(trader.avgReleaseSeconds);
  return (
    <div className="otc-trader" data-testid={testId}>
      <span className="otc-trader-avatar" aria-hidden>
        {trader.nickname.slice(0, 1).toUpperCase()}
      </span>
      <div>
        <div className="otc-trader-name" data-testid="otc-trader-name">
          {trader.nickname}
        </div>
        <div className="otc-trader-stats">
          <span data-testid="otc-trader-orders">{t('otc.trader.orders30d', { count: trader.completedOrders30d })}</span>
          <span data-testid="otc-trader-rate">{rate ? t('otc.trader.completion', { rate }) : t('otc.trader.noCompletion')}</span>
          <span data-testid="otc-trader-release">
            {release ? t('otc.trader.avgRelease', { time: t(release.key, release.values) }) : t('otc.trader.noRelease')}
          </span>
        </div>
      </div>
    </div>
  );
}
