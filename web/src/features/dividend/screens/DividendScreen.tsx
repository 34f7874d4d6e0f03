import { useCallback, useEffect, useRef, useState } from 'react';
import { Button, DotLoading, PullToRefresh, Tag } from 'antd-mobile';
import { useTranslation } from '../../../lib/i18n/translator';
import { Link } from '../../../lib/router/router';
import { QuoteRow } from '../../../components/QuoteRow';
import { PagedList } from '../../../components/lists/PagedList';
import { displayMoney } from '../../../lib/format/money';
import { usePagedList } from '../../../lib/paging/use-paged-list';
import { showToast } from '../../../lib/toast';
import { claimDividend } from '../api/claim-dividend';
import { getAiInfo } from '../api/get-ai-info';
import { DividendRecordRow } from '../components/DividendRecordRow';
import {
  DIVIDEND_RECORDS_PATH,
  HOSTING_PATH,
  canClaim,
  summaryOf,
  validity,
  withDividendIds,
  type DividendSummary,
} from '../dividend';

/** Whether the member shares in the pool: custody against the threshold, and how to become valid. */
function ValidityCard({ summary }: { summary: DividendSummary }) {
  const { t } = useTranslation();
  const state = validity(summary);
  return (
    <section className="withdraw-section" data-testid="dividend-validity" data-valid={String(state.valid)}>
      <div className="hosting-summary-head">
        <div className="withdraw-label">{t('dividend.validity')}</div>
        <Tag color={state.valid ? 'success' : 'default'} data-testid="dividend-valid-tag">
          {t(state.valid ? 'dividend.valid' : 'dividend.notValid')}
        </Tag>
      </div>
      <QuoteRow label={t('dividend.custody')} value={`${displayMoney(summary.custodyBalance)} USDT`} testId="dividend-custody" />
      <QuoteRow
        label={t('dividend.threshold')}
        value={`${displayMoney(summary.validThreshold)} USDT`}
        testId="dividend-threshold"
      />
      {!state.valid && (
        <p className="hosting-note" data-testid="dividend-valid-hint">
          {t('dividend.validHint', { threshold: displayMoney(summary.validThreshold), short: displayMoney(state.shortBy) })}{' '}
          <Link to={HOSTING_PATH} data-testid="dividend-hosting-link">
            {t('dividend.goHosting')}
          </Link>
        </p>
      )}
    </section>
  );
}

/** The latest day with a pool: its size and how many valid members shared it. */
function LastPool({ summary }: { summary: DividendSummary }) {
  const { t } = useTranslation();
  const pool = summary.lastPool;
  return (
    <section className="withdraw-section" data-testid="dividend-last-pool">
      <div className="withdraw-label">{t('dividend.lastPool')}</div>
      {pool ? (
        <>
          <QuoteRow label={t('dividend.poolDay')} value={pool.day} testId="dividend-pool-day" />
          <QuoteRow label={t('dividend.poolAmount')} value={`${displayMoney(pool.amount)} USDT`} testId="dividend-pool-amount" />
          <QuoteRow label={t('dividend.poolMembers')} value={String(pool.members)} testId="dividend-pool-members" />
        </>
      ) : (
        <p className="hosting-note" data-testid="dividend-no-pool">
          {t('dividend.noPool')}
        </p>
      )}
    </section>
  );
}

/** index4: the AI dividend: what can be claimed, validity, the last pool and the release records. */
export default function DividendScreen() {
  const { t } = useTranslation();
  const [summary, setSummary] = useState<DividendSummary | null>(null);
  const [load, setLoad] = useState<{ attempt: number; failed: boolean }>({ attempt: 0, failed: false });
  const [claiming, setClaiming] = useState(false);
  const sending = useRef(false);

  const refreshSummary = useCallback(
    // The summary comes with every page of records; one record is enough to get it.
    () =>
      getAiInfo({ page: 1, pageSize: 1 }).then(
        (info) => {
          setSummary(summaryOf(info));
          setLoad((previous) => ({ ...previous, failed: false }));
        },
        () => setLoad((previous) => ({ ...previous, failed: true })),
      ),
    [],
  );
  useEffect(() => {
    void refreshSummary();
  }, [refreshSummary, load.attempt]);

  const fetchPage = useCallback(
    (page: number, pageSize: number) => getAiInfo({ page, pageSize }).then((info) => withDividendIds(info.records)),
    [],
  );
  const records = usePagedList(fetchPage);
  const { reload } = records;

  const refreshAll = useCallback(async () => {
    reload();
    await refreshSummary();
  }, [reload, refreshSummary]);

  const claim = async () => {
    if (sending.current) return;
    sending.current = true;
    setClaiming(true);
    try {
      const claimed = await claimDividend();
      showToast(t('dividend.claimed', { amount: displayMoney(claimed.amount), days: claimed.days }));
    } catch {
      // The client has shown the server's message (nothing to claim).
    } finally {
      sending.current = false;
      setClaiming(false);
      void refreshAll();
    }
  };

  if (!summary && load.failed) {
    return (
      <div className="recharge-failed" data-testid="dividend-failed">
        <span>{t('records.loadFailed')}</span>{' '}
        <button
          type="button"
          className="link-button"
          onClick={() => setLoad((previous) => ({ attempt: previous.attempt + 1, failed: false }))}
        >
          {t('records.retry')}
        </button>
      </div>
    );
  }
  if (!summary) {
    return (
      <div className="page-loading">
        <DotLoading color="primary" />
      </div>
    );
  }

  return (
    <PullToRefresh
      onRefresh={refreshAll}
      pullingText={t('assets.pullToRefresh')}
      canReleaseText={t('assets.releaseToRefresh')}
      refreshingText={t('common.loading')}
      completeText={t('assets.refreshed')}
    >
      <div className="hosting-screen dividend-screen">
        <section className="hosting-summary" data-testid="dividend-summary">
          <div className="assets-summary-label">{t('dividend.claimable')}</div>
          <div className="assets-summary-total" data-testid="dividend-claimable">
            {displayMoney(summary.claimable)}
            <span className="assets-summary-unit">USDT</span>
          </div>
          <div className="dividend-claim-row">
            <div>
              <div className="assets-summary-label">{t('dividend.claimedTotal')}</div>
              <div className="assets-summary-part" data-testid="dividend-claimed-total">
                {displayMoney(summary.claimedTotal)} USDT
              </div>
            </div>
            <Button
              color="primary"
              shape="rounded"
              loading={claiming}
              disabled={!canClaim(summary)}
              onClick={() => void claim()}
              data-testid="dividend-claim"
            >
              {t('dividend.claim')}
            </Button>
          </div>
        </section>

        <ValidityCard summary={summary} />
        <LastPool summary={summary} />

        <div className="hosting-orders-head">
          <div className="record-title">
            <span className="hosting-orders-title">{t('dividend.records')}</span>
            <Link to={DIVIDEND_RECORDS_PATH} className="machines-records-link" data-testid="dividend-records-link">
              {t('dividend.allRecords')}
            </Link>
          </div>
        </div>
        <PagedList
          {...records}
          testId="dividend-records"
          renderItem={(record) => <DividendRecordRow key={record.id} record={record} />}
        />
      </div>
    </PullToRefresh>
  );
}
