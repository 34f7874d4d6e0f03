import { useCallback, useState } from 'react';
import { CapsuleTabs, List, Tag } from 'antd-mobile';
import { useTranslation } from '../../../lib/i18n/translator';
import { useNavigate } from '../../../lib/router/router';
import { WITHDRAWAL_STATUSES, type Withdrawal, type WithdrawalStatus } from '@custos/contract';
import { PagedList } from '../../../components/lists/PagedList';
import { displayMoney } from '../../../lib/format/money';
import { formatDateTime } from '../../../lib/format/time';
import { usePagedQuery } from '../../../lib/paging/use-paged-query';
import { withdrawalKeys } from '../api/keys';
import { listWithdrawals } from '../api/list-withdrawals';
import { shortAddress } from '../methods';
import { withdrawalDetailPath } from '../paths';
import { WITHDRAWAL_STATUS_COLOURS, withdrawalStatusKey } from '../records';

const ALL = 'all';

function WithdrawalRow({ withdrawal }: { withdrawal: Withdrawal }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <List.Item
      data-testid="withdrawal-item"
      data-withdrawal-id={withdrawal.id}
      onClick={() => void navigate(withdrawalDetailPath(withdrawal.id))}
      description={
        <>
          <div data-testid="withdrawal-fee">
            {t('withdraw.feeAndReceived', { fee: displayMoney(withdrawal.fee), received: displayMoney(withdrawal.received) })}
          </div>
          <div className="withdraw-address" data-testid="withdrawal-destination">
            {withdrawal.network ? `${withdrawal.network} · ` : ''}
            {withdrawal.methodType === 'crypto' ? shortAddress(withdrawal.destination) : withdrawal.destination}
          </div>
          <div>{formatDateTime(withdrawal.createdAt)}</div>
        </>
      }
      extra={
        <Tag color={WITHDRAWAL_STATUS_COLOURS[withdrawal.status]} data-testid="withdrawal-status" data-status={withdrawal.status}>
          {t(withdrawalStatusKey(withdrawal.status))}
        </Tag>
      }
    >
      <span data-testid="withdrawal-amount">{`${displayMoney(withdrawal.amount)} USDT`}</span>
    </List.Item>
  );
}

/** withdraw_record: the member's withdrawals, newest first, by status; a tap opens the details. */
export default function WithdrawRecordsScreen() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<WithdrawalStatus | typeof ALL>(ALL);
  const fetchPage = useCallback(
    (page: number, pageSize: number) => listWithdrawals({ page, pageSize, ...(status === ALL ? {} : { status }) }),
    [status],
  );
  // Withdrawal events invalidate the withdrawals domain (app/live-invalidation.ts).
  const list = usePagedQuery(withdrawalKeys.list(status === ALL ? undefined : status), fetchPage);
  return (
    <div className="records-screen">
      <CapsuleTabs
        activeKey={status}
        onChange={(key) => setStatus(key as WithdrawalStatus | typeof ALL)}
        className="record-filter"
        data-testid="withdrawal-status-filter"
      >
        {[ALL, ...WITHDRAWAL_STATUSES].map((key) => (
          <CapsuleTabs.Tab
            key={key}
            title={key === ALL ? t('withdraw.allStatuses') : t(withdrawalStatusKey(key as WithdrawalStatus))}
          />
        ))}
      </CapsuleTabs>
      <PagedList
        {...list}
        testId="withdrawals"
        renderItem={(withdrawal) => <WithdrawalRow key={withdrawal.id} withdrawal={withdrawal} />}
      />
    </div>
  );
}
