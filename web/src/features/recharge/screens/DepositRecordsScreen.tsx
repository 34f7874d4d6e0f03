import { useCallback, useState } from 'react';
import { CapsuleTabs, List, Tag } from 'antd-mobile';
import { useTranslation } from '../../../lib/i18n/translator';
import { NETWORKS, type Deposit, type Network } from '@custos/contract';
import { PagedList } from '../../../components/lists/PagedList';
import { displayMoney } from '../../../lib/format/money';
import { formatDateTime } from '../../../lib/format/time';
import { usePagedQuery } from '../../../lib/paging/use-paged-query';
import { depositKeys } from '../api/keys';
import { listDeposits } from '../api/list-deposits';
import { DEPOSIT_STATUS_COLOURS, depositStatusText, explorerTxUrl, shortHash } from '../deposits';

const ALL = 'all';

function DepositRow({ deposit }: { deposit: Deposit }) {
  const { t } = useTranslation();
  const status = depositStatusText(deposit);
  const credited = deposit.status === 'credited';
  return (
    <List.Item
      data-testid="deposit-item"
      data-tx-hash={deposit.txHash}
      description={
        <>
          <div>{formatDateTime(deposit.seenAt)}</div>
          {deposit.creditedAt && <div>{t('recharge.creditedAt', { time: formatDateTime(deposit.creditedAt) })}</div>}
          <div>
            {t('recharge.txHash')}{' '}
            <a
              className="deposit-tx"
              href={explorerTxUrl(deposit.network, deposit.txHash)}
              target="_blank"
              rel="noopener noreferrer"
              title={deposit.txHash}
              data-testid="deposit-tx"
            >
              {shortHash(deposit.txHash)}
            </a>
          </div>
        </>
      }
      extra={
        <Tag color={DEPOSIT_STATUS_COLOURS[deposit.status]} data-testid="deposit-status" data-status={deposit.status}>
          {t(status.key, status.values)}
        </Tag>
      }
    >
      <span className={credited ? 'amount-plus' : undefined} data-testid="deposit-amount">
        {`${credited ? '+' : ''}${displayMoney(deposit.amount)} USDT`}
      </span>{' '}
      <Tag color="primary" fill="outline" data-testid="deposit-network">
        {deposit.network}
      </Tag>
    </List.Item>
  );
}

/** withdraw_record1: the member's on-chain deposits, newest first, including those never credited. */
export default function DepositRecordsScreen() {
  const { t } = useTranslation();
  const [network, setNetwork] = useState<Network | typeof ALL>(ALL);
  const fetchPage = useCallback(
    (page: number, pageSize: number) => listDeposits({ page, pageSize, ...(network === ALL ? {} : { network }) }),
    [network],
  );
  // A credited deposit invalidates the deposits domain (app/live-invalidation.ts).
  const list = usePagedQuery(depositKeys.list(network === ALL ? undefined : network), fetchPage);
  return (
    <div className="records-screen">
      <CapsuleTabs activeKey={network} onChange={(key) => setNetwork(key as Network | typeof ALL)} className="record-filter">
        {[ALL, ...NETWORKS].map((key) => (
          <CapsuleTabs.Tab key={key} title={key === ALL ? t('recharge.allNetworks') : key} />
        ))}
      </CapsuleTabs>
      <PagedList {...list} testId="deposits" renderItem={(deposit) => <DepositRow key={deposit.id} deposit={deposit} />} />
    </div>
  );
}
