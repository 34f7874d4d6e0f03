import { Button, Tag } from 'antd-mobile';
import { useTranslation } from '../../../lib/i18n/translator';
import type { OtcMarketListing } from '@custos/contract';
import { displayMoney } from '../../../lib/format/money';
import { PaymentTypeTags } from './PaymentTypeTags';
import { TraderLine } from './TraderLine';

/** One listing of the market: the trader, price, what is left, the per-order limits, methods, and Buy or Sell. */
export function ListingCard({
  listing,
  fiatCurrency,
  onTake,
}: {
  listing: OtcMarketListing;
  fiatCurrency: string;
  onTake: (listing: OtcMarketListing) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="otc-listing" data-testid="otc-listing" data-listing-id={listing.id} data-side={listing.side}>
      <TraderLine trader={listing.trader} />
      <div className="otc-listing-body">
        <div>
          <div className="otc-listing-label">{t('otc.price')}</div>
          <div className="otc-listing-price" data-testid="otc-listing-price">
            {displayMoney(listing.price)} <span className="otc-unit">{fiatCurrency}</span>
          </div>
          <div className="otc-listing-line">
            <span className="otc-listing-label">{t('otc.available')}</span>{' '}
            <span data-testid="otc-listing-available">{displayMoney(listing.available)} USDT</span>
          </div>
          <div className="otc-listing-line">
            <span className="otc-listing-label">{t('otc.limits')}</span>{' '}
            <span data-testid="otc-listing-limits">
              {listing.splittable
                ? t('otc.limitsValue', { min: displayMoney(listing.minPerOrder), max: displayMoney(listing.maxPerOrder) })
                : t('otc.notSplittable')}
            </span>
          </div>
          <PaymentTypeTags types={listing.paymentTypes} />
        </div>
        <div className="otc-listing-action">
          {listing.mine ? (
            <Tag color="default" data-testid="otc-listing-mine">
              {t('otc.mine')}
            </Tag>
          ) : (
            <Button
              size="small"
              color={listing.side === 'sell' ? 'success' : 'danger'}
              onClick={() => onTake(listing)}
              data-testid="otc-take"
            >
              {listing.side === 'sell' ? t('otc.buy') : t('otc.sell')}
            </Button>
          )}
          <div className="otc-listing-window">{t('otc.paymentWindow', { minutes: listing.paymentWindowMinutes })}</div>
        </div>
      </div>
    </div>
  );
}
