import { useCallback, useRef, useState } from 'react';
import { CapsuleTabs, Dropdown, List, Selector, type DropdownRef } from 'antd-mobile';
import { useTranslation } from '../../../lib/i18n/translator';
import { ASSETS, RECORD_TYPES, type Asset, type BalanceLogItem, type RecordType } from '@custos/contract';
import { PagedList } from '../../../components/lists/PagedList';
import { displayMoney, displaySigned, signOf } from '../../../lib/format/money';
import { formatDateTime } from '../../../lib/format/time';
import { usePagedList } from '../../../lib/paging/use-paged-list';
import { listBalanceLog } from '../api/list-balance-log';

const ALL = 'all';

function LogRow({ item }: { item: BalanceLogItem }) {
  const { t } = useTranslation();
  return (
    <List.Item
      data-testid="balance-log-item"
      description={
        <>
          <div>{formatDateTime(item.createdAt)}</div>
          <div>{t('records.balanceAfter', { amount: displayMoney(item.balanceAfter), asset: item.asset })}</div>
        </>
      }
      extra={
        <span className={`amount-${signOf(item.amount)}`} data-testid="balance-log-amount">
          {displaySigned(item.amount)} {item.asset}
        </span>
      }
    >
      {t(`recordTypes.${item.type}`)}
    </List.Item>
  );
}

/** blance_record: the balance log, filtered by asset and by type, newest first. */
export default function BalanceLogScreen() {
  const { t } = useTranslation();
  const [asset, setAsset] = useState<Asset | typeof ALL>(ALL);
  const [type, setType] = useState<RecordType | typeof ALL>(ALL);
  const dropdown = useRef<DropdownRef>(null);

  const fetchPage = useCallback(
    (page: number, pageSize: number) =>
      listBalanceLog({ page, pageSize, ...(asset === ALL ? {} : { asset }), ...(type === ALL ? {} : { type }) }),
    [asset, type],
  );
  const list = usePagedList(fetchPage);

  return (
    <div className="balance-log-screen">
      <CapsuleTabs activeKey={asset} onChange={(key) => setAsset(key as Asset | typeof ALL)} className="record-filter">
        {[ALL, ...ASSETS].map((key) => (
          <CapsuleTabs.Tab key={key} title={key === ALL ? t('records.allAssets') : t(`assetNames.${key}`)} />
        ))}
      </CapsuleTabs>
      <Dropdown ref={dropdown} className="record-type-filter">
        <Dropdown.Item key="type" title={type === ALL ? t('records.allTypes') : t(`recordTypes.${type}`)}>
          <div className="record-type-options">
            <Selector
              columns={2}
              value={[type]}
              options={[ALL, ...RECORD_TYPES].map((key) => ({
                value: key,
                label: key === ALL ? t('records.allTypes') : t(`recordTypes.${key}`),
              }))}
              onChange={(values) => {
                setType((values[0] as RecordType | typeof ALL | undefined) ?? ALL);
                dropdown.current?.close();
              }}
            />
          </div>
        </Dropdown.Item>
      </Dropdown>
      <PagedList {...list} testId="balance-log" renderItem={(item) => <LogRow key={item.id} item={item} />} />
    </div>
  );
}
