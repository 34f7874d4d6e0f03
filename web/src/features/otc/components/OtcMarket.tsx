import { useCallback, useEffect, useState } from 'react';
import { Button, DotLoading, Input, Segmented, Selector } from 'antd-mobile';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n/translator';
import { useNavigate } from '../../../lib/router/router';
import { DEBOUNCE_MS, OTC_PAYMENT_TYPES, type OtcMarketListing, type OtcPaymentType, type OtcSide } from '@custos/contract';
import { UnreadBadge } from '../../../components/content/UnreadBadge';
import { PagedList } from '../../../components/lists/PagedList';
import { displayMoney } from '../../../lib/format/money';
import { normaliseAmountInput, parseAmount } from '../../../lib/money/amount';
import { usePagedQuery } from '../../../lib/paging/use-paged-query';
import { getPendingInfo } from '../api/get-pending-info';
import { otcKeys } from '../api/keys';
import { listMarket } from '../api/list-market';
import { EligibilityNotices } from './EligibilityNotices';
import { ListingCard } from './ListingCard';
import { TakeSheet } from './TakeSheet';
import { MY_LISTINGS_PATH, MY_ORDERS_PATH, postListingPath } from '../paths';
import { useOtcInfo } from '../use-otc-info';

const ALL = 'all';

/** The amount filter as the server takes it: a valid amount, or none while the member is still typing. */
function amountFilter(text: string): string {
  const value = normaliseAmountInput(text);
  return parseAmount(value) === null ? '' : value;
}

/**
 * The OTC market. "Buy USDT" shows others' sell listings and "Sell USDT" others' buy listings, best
 * price first, filtered by amount and payment method, under the operator's guide price; taking one
 * opens a sheet, then the order.
 */
export function OtcMarket() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const info = useOtcInfo();
  const pending = useQuery({ queryKey: otcKeys.pending(), queryFn: getPendingInfo });
  // The side of the listings shown: members buy USDT from sell listings.
  const [side, setSide] = useState<OtcSide>('sell');
  const [amountText, setAmountText] = useState('');
  const [amount, setAmount] = useState('');
  const [paymentType, setPaymentType] = useState<OtcPaymentType | typeof ALL>(ALL);
  const [taking, setTaking] = useState<OtcMarketListing | null>(null);

  // The amount filter applies once the member stops typing (spec §9: debounce 500 ms).
  useEffect(() => {
    const timer = window.setTimeout(() => setAmount(amountFilter(amountText)), DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [amountText]);

  const type = paymentType === ALL ? undefined : paymentType;
  const fetchPage = useCallback(
    (page: number, pageSize: number) =>
      listMarket({ page, pageSize, side, ...(amount ? { amount } : {}), ...(type ? { paymentType: type } : {}) }),
    [side, amount, type],
  );
  const market = usePagedQuery(otcKeys.market(side, amount, type), fetchPage);

  if (!info.data) {
    return info.isError ? (
      <div className="recharge-failed" data-testid="otc-failed">
        <span>{t('records.loadFailed')}</span>{' '}
        <button type="button" className="link-button" onClick={() => void info.refetch()}>
          {t('records.retry')}
        </button>
      </div>
    ) : (
      <div className="page-loading">
        <DotLoading color="primary" />
      </div>
    );
  }
  const otc = info.data;
  const waiting = pending.data?.needsMyAction ?? 0;

  return (
    <div className="otc-screen" data-testid="otc-market">
      <section className="otc-guide" data-testid="otc-guide">
        <div className="otc-guide-label">{t('otc.guidePrice')}</div>
        <div className="otc-guide-price">
          <span data-testid="otc-guide-price">{displayMoney(otc.guidePrice)}</span>{' '}
          <span className="otc-unit">{t('otc.perUsdt', { currency: otc.fiatCurrency })}</span>
        </div>
        <div className="otc-guide-band" data-testid="otc-guide-band">
          {t('otc.band', { min: displayMoney(otc.priceMin), max: displayMoney(otc.priceMax), currency: otc.fiatCurrency })}
        </div>
        <div className="otc-guide-band" data-testid="otc-my-available">
          {t('otc.myAvailable', { amount: displayMoney(otc.me.availableUsdt) })}
        </div>
      </section>

      <EligibilityNotices info={otc} />

      <div className="otc-links">
        <Button
          size="small"
          color="primary"
          onClick={() => void navigate(postListingPath(side === 'sell' ? 'buy' : 'sell'))}
          data-testid="otc-post"
        >
          {t('otc.post')}
        </Button>
        <Button size="small" fill="outline" onClick={() => void navigate(MY_LISTINGS_PATH)} data-testid="otc-my-listings">
          {t('otc.myListings')}
        </Button>
        <UnreadBadge count={waiting} testId="otc-waiting">
          <Button size="small" fill="outline" onClick={() => void navigate(MY_ORDERS_PATH)} data-testid="otc-my-orders">
            {t('otc.myOrders')}
          </Button>
        </UnreadBadge>
      </div>

      <div className="otc-segment">
        <Segmented
          block
          value={side}
          onChange={(value) => setSide(value as OtcSide)}
          options={[
            { value: 'sell', label: <span data-testid="otc-side-buy">{t('otc.buyUsdt')}</span> },
            { value: 'buy', label: <span data-testid="otc-side-sell">{t('otc.sellUsdt')}</span> },
          ]}
          data-testid="otc-side"
        />
      </div>

      <div className="otc-filters">
        <label className="otc-filter-amount-row">
          <span className="otc-filter-amount-label">{t('otc.filterAmount')}</span>
          <Input
            className="otc-filter-amount"
            value={amountText}
            onChange={setAmountText}
            placeholder={t('otc.filterAmountPlaceholder')}
            inputMode="decimal"
            clearable
            data-testid="otc-filter-amount"
          />
        </label>
        <Selector<string>
          columns={4}
          className="otc-filter-types"
          value={[paymentType]}
          onChange={(next) => setPaymentType((next[0] as OtcPaymentType | undefined) ?? ALL)}
          options={[ALL, ...OTC_PAYMENT_TYPES].map((value) => ({
            value,
            label: value === ALL ? t('otc.allPaymentTypes') : t(`otc.paymentTypes.${value as OtcPaymentType}`),
          }))}
          data-testid="otc-filter-type"
        />
      </div>

      <PagedList
        {...market}
        testId="otc-listings"
        renderItem={(listing) => (
          <ListingCard key={listing.id} listing={listing} fiatCurrency={otc.fiatCurrency} onTake={setTaking} />
        )}
      />

      {taking && <TakeSheet listing={taking} info={otc} onClose={() => setTaking(null)} />}
    </div>
  );
}
