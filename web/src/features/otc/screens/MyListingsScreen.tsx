import { useCallback, useState } from 'react';
import { Button, CapsuleTabs, Dialog, DotLoading, Tag } from 'antd-mobile';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n/translator';
import { OTC_LISTING_STATES, type OtcListingState, type OtcMyListing } from '@custos/contract';
import { assetKeys } from '../../../api/keys';
import { PagedList } from '../../../components/lists/PagedList';
import { QuoteRow } from '../../../components/QuoteRow';
import { displayMoney } from '../../../lib/format/money';
import { formatDateTime } from '../../../lib/format/time';
import { usePagedQuery } from '../../../lib/paging/use-paged-query';
import { showToast } from '../../../lib/toast';
import { getListing } from '../api/get-listing';
import { otcKeys } from '../api/keys';
import { listMyListings } from '../api/list-my-listings';
import { revokeListing } from '../api/revoke-listing';
import { OrderTrail } from '../components/OrderTrail';
import { PaymentTypeTags } from '../components/PaymentTypeTags';

const ALL = 'all';
const STATE_COLOURS: Record<OtcListingState, string> = { matching: 'primary', ended: 'success', cancelled: 'default' };

/** A listing's trail, read when the member opens it. */
function ListingTrail({ id }: { id: string }) {
  const query = useQuery({ queryKey: otcKeys.listing(id), queryFn: () => getListing(id) });
  const trail = query.data?.mine?.trail;
  return trail ? <OrderTrail items={trail} stepKey="listingSteps" /> : <DotLoading />;
}

function ListingRow({ listing }: { listing: OtcMyListing }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [trail, setTrail] = useState(false);
  const [busy, setBusy] = useState(false);

  const revoke = () => {
    void Dialog.confirm({ content: t('otc.revokeConfirm'), confirmText: t('otc.revoke'), cancelText: t('common.cancel') }).then(
      (yes) => {
        if (!yes) return;
        setBusy(true);
        revokeListing(listing.id)
          .then(
            () => showToast(t('otc.revoked')),
            // The server's refusal has been shown.
            () => undefined,
          )
          .finally(() => {
            setBusy(false);
            void queryClient.invalidateQueries({ queryKey: otcKeys.all });
            void queryClient.invalidateQueries({ queryKey: assetKeys.all });
          });
      },
    );
  };

  return (
    <div className="otc-my-listing" data-testid="otc-my-listing" data-listing-id={listing.id} data-state={listing.state}>
      <div className="otc-order-head-line">
        <Tag color={listing.side === 'sell' ? 'danger' : 'success'} fill="outline" data-testid="otc-my-listing-side">
          {t(`otc.listingSide.${listing.side}`)}
        </Tag>
        <span className="otc-listing-no">{t('otc.listingNo', { no: listing.listingNo })}</span>
        <Tag color={STATE_COLOURS[listing.state]} data-testid="otc-my-listing-state" data-state={listing.state}>
          {t(`otc.listingStates.${listing.state}`)}
        </Tag>
      </div>
      <QuoteRow label={t('otc.price')} value={displayMoney(listing.price)} testId="otc-my-listing-price" />
      <QuoteRow label={t('otc.quantity')} value={`${displayMoney(listing.quantity)} USDT`} testId="otc-my-listing-quantity" />
      <QuoteRow label={t('otc.available')} value={`${displayMoney(listing.available)} USDT`} testId="otc-my-listing-available" />
      <QuoteRow label={t('otc.inOrders')} value={`${displayMoney(listing.inOrders)} USDT`} testId="otc-my-listing-in-orders" />
      <QuoteRow label={t('otc.completed')} value={`${displayMoney(listing.completed)} USDT`} testId="otc-my-listing-completed" />
      <QuoteRow label={t('otc.escrowHeld')} value={`${displayMoney(listing.escrowHeld)} USDT`} testId="otc-my-listing-escrow" />
      <QuoteRow
        label={t(`otc.depositStatus.${listing.depositStatus}`)}
        value={`${displayMoney(listing.deposit)} USDT`}
        testId="otc-my-listing-deposit"
      />
      <QuoteRow
        label={t('otc.limits')}
        value={
          listing.splittable
            ? t('otc.limitsValue', { min: displayMoney(listing.minPerOrder), max: displayMoney(listing.maxPerOrder) })
            : t('otc.notSplittable')
        }
        testId="otc-my-listing-limits"
      />
      <div className="otc-my-listing-foot">
        <PaymentTypeTags types={listing.paymentTypes} />
        <span className="record-time">{formatDateTime(listing.createdAt)}</span>
      </div>
      <div className="otc-actions">
        <Button
          size="small"
          fill="none"
          color="primary"
          onClick={() => setTrail((open) => !open)}
          data-testid="otc-my-listing-trail"
        >
          {trail ? t('otc.hideTrail') : t('otc.showTrail')}
        </Button>
        {listing.state === 'matching' && (
          <Button size="small" color="danger" fill="outline" loading={busy} onClick={revoke} data-testid="otc-revoke">
            {t('otc.revoke')}
          </Button>
        )}
      </div>
      {trail && <ListingTrail id={listing.id} />}
    </div>
  );
}

/** blance_record9: my OTC listings by state, with what each holds, its trail, and revoke. */
export default function MyListingsScreen() {
  const { t } = useTranslation();
  const [state, setState] = useState<OtcListingState | typeof ALL>(ALL);
  const fetchPage = useCallback(
    (page: number, pageSize: number) => listMyListings({ page, pageSize, ...(state === ALL ? {} : { state }) }),
    [state],
  );
  // Every order on a listing sends `otc.listing`, which invalidates the OTC domain.
  const list = usePagedQuery(otcKeys.myListings(state === ALL ? undefined : state), fetchPage);
  return (
    <div className="records-screen otc-records">
      <CapsuleTabs
        activeKey={state}
        onChange={(key) => setState(key as OtcListingState | typeof ALL)}
        className="record-filter"
        data-testid="otc-listing-state-filter"
      >
        {[ALL, ...OTC_LISTING_STATES].map((key) => (
          <CapsuleTabs.Tab
            key={key}
            title={key === ALL ? t('otc.allStates') : t(`otc.listingStates.${key as OtcListingState}`)}
          />
        ))}
      </CapsuleTabs>
      <PagedList {...list} testId="otc-my-listings" renderItem={(listing) => <ListingRow key={listing.id} listing={listing} />} />
    </div>
  );
}
