import { useTranslation } from '../../lib/i18n/translator';
import type { UserAssets } from '@custos/contract';
import { displayMoney } from '../../lib/format/money';

/** Total assets in USDT with the cash and custody split (Home and Assets tabs). */
export function AssetsSummary({ assets, onOpen }: { assets: UserAssets | null; onOpen?: () => void }) {
  const { t } = useTranslation();
  return (
    <div
      className={onOpen ? 'assets-summary assets-summary-link' : 'assets-summary'}
      data-testid="assets-summary"
      onClick={onOpen}
      role={onOpen ? 'link' : undefined}
    >
      <div className="assets-summary-label">{t('assets.total')}</div>
      {assets ? (
        <div className="assets-summary-total" data-testid="total-assets">
          {displayMoney(assets.totalUsdt)}
          <span className="assets-summary-unit">USDT</span>
        </div>
      ) : (
        <div className="assets-summary-skeleton" aria-hidden="true" />
      )}
      <div className="assets-summary-split">
        <div>
          <div className="assets-summary-label">{t('assets.cash')}</div>
          <div className="assets-summary-part" data-testid="cash-assets">
            {assets ? displayMoney(assets.cashUsdt) : '—'}
          </div>
        </div>
        <div>
          <div className="assets-summary-label">{t('assets.custody')}</div>
          <div className="assets-summary-part" data-testid="custody-assets">
            {assets ? displayMoney(assets.custodyUsdt) : '—'}
          </div>
        </div>
      </div>
    </div>
  );
}
