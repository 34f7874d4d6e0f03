import { useState } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Descriptions, Input, Modal, Select, Space, Table, Tag, Typography } from 'antd';
import { Link, useSearchParams } from 'react-router';
import {
  OTC_LISTING_STATES,
  OTC_SIDES,
  operatorMay,
  type AdminOtcListing,
  type Operator,
  type OtcListingState,
  type OtcSide,
} from '@custos/contract';
import { Amount } from '../../../components/Amount';
import { ledgerKeys } from '../../../api/keys';
import { formatTime } from '../../../lib/dates';
import { errorText } from '../../../lib/query/query-client';
import { listOtcListings, revokeOtcListing, type OtcListingFilter } from '../api/otc';
import { otcKeys } from '../api/keys';
import { PartyCell } from '../components/Party';
import { LISTING_STATE_COLOURS, LISTING_STATE_LABELS, PAYMENT_TYPE_LABELS, SIDE_LABELS, reputationText } from '../otc';

const PAGE_SIZE = 20;
const ALL = 'all';
const REASON_MAX_LENGTH = 200;

function oneOf<T extends string>(values: readonly T[], value: string | null): T | null {
  return (values as readonly string[]).includes(value ?? '') ? (value as T) : null;
}

function ListingDetails({ listing }: { listing: AdminOtcListing }) {
  return (
    <Descriptions size="small" column={2} bordered>
      <Descriptions.Item label="Lister">{reputationText(listing.lister.reputation)}</Descriptions.Item>
      <Descriptions.Item label="Payment window">{listing.paymentWindowMinutes} min</Descriptions.Item>
      <Descriptions.Item label="Per order">
        {listing.minPerOrder} – {listing.maxPerOrder} USDT {listing.splittable ? '' : '(not splittable)'}
      </Descriptions.Item>
      <Descriptions.Item label="Maker's fee">{listing.makerFeePct} %</Descriptions.Item>
      <Descriptions.Item label="In open orders">{listing.inOrders} USDT</Descriptions.Item>
      <Descriptions.Item label="Completed">{listing.completed} USDT</Descriptions.Item>
      <Descriptions.Item label="Escrow held">{listing.escrowHeld} USDT</Descriptions.Item>
      <Descriptions.Item label="Deposit">
        {listing.deposit} USDT ({listing.depositStatus})
      </Descriptions.Item>
      <Descriptions.Item label="Payment methods" span={2}>
        {listing.paymentMethods.map((method) => `${PAYMENT_TYPE_LABELS[method.type]} (${method.holderName})`).join(', ') || '—'}
      </Descriptions.Item>
      <Descriptions.Item label="Terms" span={2}>
        <span style={{ whiteSpace: 'pre-wrap' }}>{listing.terms || '—'}</span>
      </Descriptions.Item>
      <Descriptions.Item label="Posted">{formatTime(listing.createdAt)}</Descriptions.Item>
      <Descriptions.Item label="Changed">{formatTime(listing.updatedAt)}</Descriptions.Item>
    </Descriptions>
  );
}

/**
 * Every OTC listing (decision 031), filtered by state, side and a listing number or the lister's
 * e-mail; a listing links to its orders; `otc.manage` may take one off the market with a reason.
 */
export function OtcListingsScreen({ operator }: { operator: Operator }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const mayRevoke = operatorMay(operator.role, 'otc.manage');
  const [search, setSearch] = useSearchParams();
  const filter: OtcListingFilter = {
    state: oneOf<OtcListingState>(OTC_LISTING_STATES, search.get('state')),
    side: oneOf<OtcSide>(OTC_SIDES, search.get('side')),
    query: search.get('query') ?? '',
  };
  const page = Math.max(1, Number.parseInt(search.get('page') ?? '1', 10) || 1);
  const listings = useQuery({
    queryKey: otcKeys.listings(filter, page),
    queryFn: () => listOtcListings(filter, page, PAGE_SIZE),
    placeholderData: keepPreviousData,
  });
  const [revoking, setRevoking] = useState<AdminOtcListing | null>(null);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);

  const change = (next: Partial<OtcListingFilter & { page: number }>) => {
    const merged = { ...filter, page: 1, ...next };
    const parameters = new URLSearchParams();
    if (merged.state) parameters.set('state', merged.state);
    if (merged.side) parameters.set('side', merged.side);
    if (merged.query) parameters.set('query', merged.query);
    if (merged.page > 1) parameters.set('page', String(merged.page));
    setSearch(parameters);
  };

  const revoke = () => {
    if (!revoking || busy || reason.trim() === '') return;
    setBusy(true);
    revokeOtcListing(revoking.id, reason.trim())
      .then(
        () => {
          void message.success(`Listing ${revoking.listingNo} taken off the market`);
          setRevoking(null);
        },
        (failure: unknown) => {
          setRevoking(null);
          setRefusal(`Could not take the listing down: ${errorText(failure)}`);
        },
      )
      .finally(() => {
        setBusy(false);
        void queryClient.invalidateQueries({ queryKey: otcKeys.all });
        void queryClient.invalidateQueries({ queryKey: ledgerKeys.all });
      });
  };

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={3}>OTC listings</Typography.Title>
      {listings.isError && <Alert type="error" showIcon title={errorText(listings.error)} />}
      {refusal && <Alert type="error" showIcon closable onClose={() => setRefusal(null)} title={refusal} />}
      <Space wrap>
        <Select<OtcListingState | typeof ALL>
          style={{ width: 180 }}
          value={filter.state ?? ALL}
          onChange={(value) => change({ state: value === ALL ? null : value })}
          options={[
            { value: ALL, label: 'All states' },
            ...OTC_LISTING_STATES.map((value) => ({ value, label: LISTING_STATE_LABELS[value] })),
          ]}
          data-testid="otc-listings-state"
        />
        <Select<OtcSide | typeof ALL>
          style={{ width: 160 }}
          value={filter.side ?? ALL}
          onChange={(value) => change({ side: value === ALL ? null : value })}
          options={[{ value: ALL, label: 'Both sides' }, ...OTC_SIDES.map((value) => ({ value, label: SIDE_LABELS[value] }))]}
          data-testid="otc-listings-side"
        />
        <Input.Search
          key={filter.query}
          defaultValue={filter.query}
          placeholder="Listing number or the lister's e-mail"
          allowClear
          enterButton="Search"
          onSearch={(value) => change({ query: value.trim() })}
          style={{ width: 380 }}
          data-testid="otc-listings-search"
        />
        <Button loading={listings.isFetching} onClick={() => void listings.refetch()}>
          Refresh
        </Button>
      </Space>
      <Table<AdminOtcListing>
        rowKey="id"
        size="small"
        loading={listings.isFetching && !listings.data}
        dataSource={listings.data?.items ?? []}
        scroll={{ x: 'max-content' }}
        expandable={{ expandedRowRender: (listing) => <ListingDetails listing={listing} /> }}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: listings.data?.total ?? 0,
          onChange: (next) => change({ page: next }),
          showSizeChanger: false,
        }}
        onRow={(listing) =>
          ({ 'data-testid': 'otc-listing-row', 'data-listing-no': listing.listingNo, 'data-state': listing.state }) as object
        }
        columns={[
          { title: 'Posted', dataIndex: 'createdAt', render: (value: string) => formatTime(value) },
          {
            title: 'Listing',
            render: (_: unknown, listing) => (
              <Space orientation="vertical" size={0}>
                <Typography.Text strong>{listing.listingNo}</Typography.Text>
                <Link to={`/otc/orders?query=${encodeURIComponent(listing.listingNo)}`} data-testid="otc-listing-orders">
                  {listing.openOrders} open order(s) · all orders
                </Link>
              </Space>
            ),
          },
          { title: 'Side', dataIndex: 'side', render: (side: OtcSide) => <Tag>{SIDE_LABELS[side]}</Tag> },
          { title: 'Lister', render: (_: unknown, listing) => <PartyCell party={listing.lister} testId="otc-listing-lister" /> },
          { title: 'Price', dataIndex: 'price', align: 'right' },
          {
            title: 'Quantity · available',
            align: 'right',
            render: (_: unknown, listing) => (
              <Space orientation="vertical" size={0}>
                <Amount value={listing.quantity} />
                <Amount value={listing.available} testId="otc-listing-available" />
              </Space>
            ),
          },
          {
            title: 'State',
            render: (_: unknown, listing) => (
              <Tag color={LISTING_STATE_COLOURS[listing.state]} data-testid="otc-listing-state">
                {LISTING_STATE_LABELS[listing.state]}
              </Tag>
            ),
          },
          ...(mayRevoke
            ? [
                {
                  title: '',
                  key: 'actions',
                  render: (_: unknown, listing: AdminOtcListing) =>
                    listing.state === 'matching' && (
                      <Button
                        size="small"
                        danger
                        onClick={() => {
                          setRefusal(null);
                          setReason('');
                          setRevoking(listing);
                        }}
                        data-testid="otc-listing-revoke"
                      >
                        Take down
                      </Button>
                    ),
                },
              ]
            : []),
        ]}
      />
      <Modal
        title="Take the listing off the market"
        open={revoking !== null}
        okText="Take down"
        okButtonProps={{ danger: true, disabled: reason.trim() === '' }}
        confirmLoading={busy}
        onCancel={() => setRevoking(null)}
        onOk={revoke}
        destroyOnHidden
      >
        {revoking && (
          <Space orientation="vertical" style={{ width: '100%' }}>
            <Typography.Paragraph>
              Listing {revoking.listingNo} of {revoking.lister.email}: what is not in an open order returns to the lister now;
              open orders still finish. The lister sees your reason.
            </Typography.Paragraph>
            <Input.TextArea
              aria-label="Reason"
              placeholder="Reason (shown to the lister)"
              maxLength={REASON_MAX_LENGTH}
              showCount
              rows={2}
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              data-testid="otc-listing-revoke-reason"
            />
          </Space>
        )}
      </Modal>
    </Space>
  );
}
