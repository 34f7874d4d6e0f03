import { useCallback, useEffect, useState } from 'react';
import { DotLoading, ErrorBlock, PullToRefresh, Segmented } from 'antd-mobile';
import { useTranslation } from '../../../lib/i18n/translator';
import { Link, useNavigate } from '../../../lib/router/router';
import type { MachineProduct } from '@custos/contract';
import { PagedList } from '../../../components/lists/PagedList';
import { usePagedList } from '../../../lib/paging/use-paged-list';
import { getMachineIndex } from '../api/get-machine-index';
import { listMachineProducts } from '../api/list-machine-products';
import { MachineSummaryCard } from '../components/MachineSummaryCard';
import { MyMachineRow } from '../components/MyMachineRow';
import { ProductCard } from '../components/ProductCard';
import {
  MACHINE_SEGMENTS,
  machineDetailPath,
  miningRecordsPath,
  summaryOf,
  type MachineStatus,
  type MachineSummary,
} from '../machines';

interface Overview {
  summary: MachineSummary;
  products: MachineProduct[];
}

/** index3: my mining at a glance, the machines on sale, and my machines (running or expired). */
export default function MachinesScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [overview, setOverview] = useState<Overview | null>(null);
  const [load, setLoad] = useState<{ attempt: number; failed: boolean }>({ attempt: 0, failed: false });
  const [segment, setSegment] = useState<MachineStatus>('running');

  const refreshOverview = useCallback(
    () =>
      // The summary comes with every page of machines; one machine is enough to get it.
      Promise.all([getMachineIndex({ page: 1, pageSize: 1 }), listMachineProducts()]).then(
        ([index, products]) => {
          setOverview({ summary: summaryOf(index), products });
          setLoad((previous) => ({ ...previous, failed: false }));
        },
        () => setLoad((previous) => ({ ...previous, failed: true })),
      ),
    [],
  );
  useEffect(() => {
    void refreshOverview();
  }, [refreshOverview, load.attempt]);

  const fetchPage = useCallback(
    (page: number, pageSize: number) => getMachineIndex({ page, pageSize, status: segment }).then((index) => index.machines),
    [segment],
  );
  const machines = usePagedList(fetchPage);
  const { reload } = machines;

  const refreshAll = useCallback(async () => {
    reload();
    await refreshOverview();
  }, [reload, refreshOverview]);

  if (!overview && load.failed) {
    return (
      <div className="recharge-failed" data-testid="machines-failed">
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
  if (!overview) {
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
      <div className="hosting-screen machines-screen">
        <MachineSummaryCard summary={overview.summary} />

        <div className="machines-section-title">{t('machines.onSale')}</div>
        {overview.products.length === 0 ? (
          <ErrorBlock
            status="empty"
            className="record-empty"
            title={t('machines.noneOnSale')}
            description=""
            data-testid="machines-on-sale-empty"
          />
        ) : (
          <div className="machine-cards" data-testid="machines-on-sale">
            {overview.products.map((product) => (
              <ProductCard key={product.id} product={product} onOpen={() => void navigate(machineDetailPath(product.id))} />
            ))}
          </div>
        )}

        <div className="hosting-orders-head">
          <div className="record-title">
            <span className="hosting-orders-title">{t('machines.myMachines')}</span>
            <Link to={miningRecordsPath()} className="machines-records-link" data-testid="machines-records-link">
              {t('routes.blanceRecord2')}
            </Link>
          </div>
          <Segmented
            block
            value={segment}
            options={MACHINE_SEGMENTS.map((value) => ({
              value,
              label: <span data-testid={`machines-segment-${value}`}>{t(`machines.segments.${value}`)}</span>,
            }))}
            onChange={(value) => setSegment(value as MachineStatus)}
            data-testid="machines-segment"
          />
        </div>
        <PagedList
          {...machines}
          testId="my-machines"
          renderItem={(machine) => (
            <MyMachineRow key={machine.id} machine={machine} onOpen={() => void navigate(miningRecordsPath(machine.id))} />
          )}
        />
      </div>
    </PullToRefresh>
  );
}
