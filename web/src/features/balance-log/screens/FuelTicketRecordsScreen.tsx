import { useCallback, useState } from 'react';
import { CapsuleTabs, List, Tag } from 'antd-mobile';
import { useTranslation } from '../../../lib/i18n/translator';
import { useSearchParams } from '../../../lib/router/router';
import { FUEL_TICKET_ASSETS, type FuelTicketLogItem } from '@custos/contract';
import { PagedList } from '../../../components/lists/PagedList';
import { displayMoney, displaySigned, signOf } from '../../../lib/format/money';
import { formatDateTime } from '../../../lib/format/time';
import { usePagedQuery } from '../../../lib/paging/use-paged-query';
import { balanceLogKeys } from '../api/keys';
import { listFuelTicketLog } from '../api/list-fuel-ticket-log';

const ALL = 'all';
type Filter = (typeof FUEL_TICKET_ASSETS)[number] | typeof ALL;

function RecordRow({ item }: { item: FuelTicketLogItem }) {
  const { t } = useTranslation();
  return (
    <List.Item
      data-testid="fuel-ticket-item"
      description={
        <>
          <div>{formatDateTime(item.createdAt)}</div>
          <div>{t('fuelTicket.balanceAfter', { amount: displayMoney(item.balanceAfter) })}</div>
        </>
      }
      extra={
        <span className={`amount-${signOf(item.amount)}`} data-testid="fuel-ticket-amount">
          {displaySigned(item.amount)} {t(`assetNames.${item.asset}`)}
        </span>
      }
    >
      {t(`recordTypes.${item.type}`)}{' '}
      <Tag color={item.purpose === 'used' ? 'default' : 'primary'} fill="outline" data-testid="fuel-ticket-purpose">
        {t(item.purpose === 'used' ? 'fuelTicket.used' : 'fuelTicket.available')}
      </Tag>
    </List.Item>
  );
}

/** withdraw_record7: fuel and ticket records, every movement of the available and used balances, newest first. */
export default function FuelTicketRecordsScreen() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const requested = searchParams.get('asset');
  const [asset, setAsset] = useState<Filter>(requested === 'FUEL' || requested === 'TICKET' ? requested : ALL);
  const fetchPage = useCallback(
    (page: number, pageSize: number) => listFuelTicketLog({ page, pageSize, ...(asset === ALL ? {} : { asset }) }),
    [asset],
  );
  const list = usePagedQuery(balanceLogKeys.fuelTicket(asset === ALL ? undefined : asset), fetchPage);
  return (
    <div className="records-screen">
      <CapsuleTabs activeKey={asset} onChange={(key) => setAsset(key as Filter)} className="record-filter">
        {[ALL, ...FUEL_TICKET_ASSETS].map((key) => (
          <CapsuleTabs.Tab key={key} title={key === ALL ? t('records.allAssets') : t(`assetNames.${key}`)} />
        ))}
      </CapsuleTabs>
      <PagedList {...list} testId="fuel-ticket-log" renderItem={(item) => <RecordRow key={item.id} item={item} />} />
    </div>
  );
}
