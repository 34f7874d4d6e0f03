import type { ReactNode } from 'react';
import { DotLoading, List, Steps, Tag } from 'antd-mobile';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n/translator';
import { useSearchParams } from '../../../lib/router/router';
import { displayMoney } from '../../../lib/format/money';
import { formatDateTime } from '../../../lib/format/time';
import { getWithdrawal } from '../api/get-withdrawal';
import { withdrawalKeys } from '../api/keys';
import { WITHDRAWAL_STATUS_COLOURS, payoutTxUrl, showsReason, withdrawalStatusKey, withdrawalTimeline } from '../records';

/** withdraw_record2?id=…: one withdrawal with every field, the payout on the explorer, why it failed, its timeline. */
export default function WithdrawalDetailScreen() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const id = searchParams.get('id') ?? '';
  // Withdrawal events invalidate it (app/live-invalidation.ts): fetched again quietly, the member is looking at it.
  const detail = useQuery({ queryKey: withdrawalKeys.detail(id), queryFn: () => getWithdrawal(id), enabled: id !== '' });

  if (!id) return <div className="recharge-failed">{t('records.empty')}</div>;
  if (detail.isPending) {
    return (
      <div className="page-loading">
        <DotLoading color="primary" />
      </div>
    );
  }
  // A failed quiet refresh keeps what is shown; only a first load that failed says so.
  if (!detail.data) {
    return (
      <div className="recharge-failed" data-testid="withdrawal-detail-failed">
        <span>{t('records.loadFailed')}</span>{' '}
        <button type="button" className="link-button" onClick={() => void detail.refetch()}>
          {t('records.retry')}
        </button>
      </div>
    );
  }

  const withdrawal = detail.data;
  const txUrl = payoutTxUrl(withdrawal);
  const timeline = withdrawalTimeline(withdrawal);
  const row = (label: string, value: ReactNode, testId: string) => (
    <List.Item extra={<span data-testid={testId}>{value}</span>}>{label}</List.Item>
  );
  return (
    <div className="withdraw-detail-screen" data-testid="withdrawal-detail">
      <section className="withdraw-section withdraw-detail-head">
        <div className="withdraw-balance" data-testid="withdrawal-detail-amount">
          {displayMoney(withdrawal.amount)} <span className="withdraw-unit">USDT</span>
        </div>
        <Tag
          color={WITHDRAWAL_STATUS_COLOURS[withdrawal.status]}
          data-testid="withdrawal-detail-status"
          data-status={withdrawal.status}
        >
          {t(withdrawalStatusKey(withdrawal.status))}
        </Tag>
      </section>
      {showsReason(withdrawal) && (
        <section className="withdraw-section withdraw-reason" data-testid="withdrawal-reason">
          <div className="withdraw-label">{t('withdraw.detail.reason')}</div>
          <div>{withdrawal.reason}</div>
        </section>
      )}
      <List className="withdraw-detail-list">
        {row(t('withdraw.detail.amount'), `${displayMoney(withdrawal.amount)} USDT`, 'withdrawal-detail-amount-row')}
        {row(t('withdraw.detail.fee'), `${displayMoney(withdrawal.fee)} USDT`, 'withdrawal-detail-fee')}
        {row(t('withdraw.detail.received'), `${displayMoney(withdrawal.received)} USDT`, 'withdrawal-detail-received')}
        {row(
          t('withdraw.detail.method'),
          withdrawal.methodType === 'crypto'
            ? t('withdraw.methods.crypto', { network: withdrawal.network ?? '' })
            : t(`withdraw.methods.${withdrawal.methodType}`),
          'withdrawal-detail-method',
        )}
        <List.Item
          description={
            <span className="withdraw-address" data-testid="withdrawal-detail-destination">
              {withdrawal.destination}
            </span>
          }
        >
          {t('withdraw.detail.destination')}
        </List.Item>
        {withdrawal.txHash && (
          <List.Item
            description={
              txUrl ? (
                <a
                  className="deposit-tx withdraw-address"
                  href={txUrl}
                  target="_blank"
                  rel="noopener noreferrer"
                  data-testid="withdrawal-detail-tx"
                >
                  {withdrawal.txHash}
                </a>
              ) : (
                <span className="withdraw-address" data-testid="withdrawal-detail-tx">
                  {withdrawal.txHash}
                </span>
              )
            }
          >
            {t('withdraw.detail.txHash')}
          </List.Item>
        )}
        {withdrawal.payoutReference &&
          row(t('withdraw.detail.reference'), withdrawal.payoutReference, 'withdrawal-detail-reference')}
        <List.Item description={<span className="withdraw-address">{withdrawal.id}</span>}>{t('withdraw.detail.id')}</List.Item>
      </List>
      <section className="withdraw-section" data-testid="withdrawal-timeline">
        <div className="withdraw-label">{t('withdraw.timeline.title')}</div>
        <Steps direction="vertical">
          {timeline.map((step) => (
            <Steps.Step
              key={step.key}
              status={step.state}
              title={t(`withdraw.timeline.${step.key}`)}
              description={step.time ? formatDateTime(step.time) : undefined}
              data-testid={`withdrawal-step-${step.key}`}
            />
          ))}
        </Steps>
      </section>
    </div>
  );
}
