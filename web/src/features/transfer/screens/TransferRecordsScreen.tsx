import { useCallback } from 'react';
import { List, Tag } from 'antd-mobile';
import { useTranslation } from '../../../lib/i18n/translator';
import type { Transfer } from '@custos/contract';
import { PagedList } from '../../../components/lists/PagedList';
import { displayMoney } from '../../../lib/format/money';
import { formatDateTime } from '../../../lib/format/time';
import { usePagedList } from '../../../lib/paging/use-paged-list';
import { listTransfers } from '../api/list-transfers';

function TransferRow({ item }: { item: Transfer }) {
  const { t } = useTranslation();
  const out = item.direction === 'out';
  return (
    <List.Item
      data-testid="transfer-item"
      prefix={<Tag color={out ? 'danger' : 'success'}>{t(out ? 'transfer.out' : 'transfer.in')}</Tag>}
      description={formatDateTime(item.createdAt)}
      extra={
        <span className={out ? 'amount-minus' : 'amount-plus'} data-testid="transfer-amount">
          {`${out ? '-' : '+'}${displayMoney(item.amount)} ${item.asset}`}
        </span>
      }
    >
      {t(out ? 'transfer.toAccount' : 'transfer.fromAccount', { name: out ? item.toNickname : item.fromNickname })}
    </List.Item>
  );
}

/** withdraw_record6: transfers into and out of the account in use, newest first. */
export default function TransferRecordsScreen() {
  const fetchPage = useCallback((page: number, pageSize: number) => listTransfers({ page, pageSize }), []);
  const list = usePagedList(fetchPage);
  return (
    <div className="records-screen">
      <PagedList {...list} testId="transfers" renderItem={(item) => <TransferRow key={item.id} item={item} />} />
    </div>
  );
}
