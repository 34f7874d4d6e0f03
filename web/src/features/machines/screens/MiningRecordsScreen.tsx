import { useCallback } from 'react';
import { List } from 'antd-mobile';
import { useTranslation } from '../../../lib/i18n/translator';
import { Link, useSearchParams } from '../../../lib/router/router';
import { PagedList } from '../../../components/lists/PagedList';
import { displayMoney } from '../../../lib/format/money';
import { usePagedList } from '../../../lib/paging/use-paged-list';
import { listMiningRecords } from '../api/list-mining-records';
import { isMachineId, miningRecordsPath, withMiningIds, type MiningRow } from '../machines';

function RecordRow({ record }: { record: MiningRow }) {
  const { t } = useTranslation();
  return (
    <List.Item
      data-testid="mining-record"
      data-machine-id={record.machineId}
      data-day={record.day}
      description={
        <>
          <div data-testid="mining-record-hashrate">{t('machines.hashrateValue', { value: record.hashrate })}</div>
          <div className="record-time" data-testid="mining-record-day">
            {t('machines.records.day', { day: record.day })}
          </div>
        </>
      }
      extra={
        <span className="amount-plus" data-testid="mining-record-amount">
          +{displayMoney(record.amount)} RAB
        </span>
      }
    >
      <span data-testid="mining-record-name">{record.name}</span>
    </List.Item>
  );
}

/** blance_record2: each day's output of my machines, newest first; of one machine with `?machineId=`. */
export default function MiningRecordsScreen() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const requested = searchParams.get('machineId');
  const machineId = isMachineId(requested) ? requested : undefined;
  const fetchPage = useCallback(
    (page: number, pageSize: number) =>
      listMiningRecords({ page, pageSize, ...(machineId ? { machineId } : {}) }).then(withMiningIds),
    [machineId],
  );
  const list = usePagedList(fetchPage);
  return (
    <div className="records-screen">
      {machineId && (
        <div className="records-balance" data-testid="mining-records-one-machine">
          <span>{t('machines.records.oneMachine')}</span>
          <Link to={miningRecordsPath()} replace data-testid="mining-records-all">
            {t('machines.records.all')}
          </Link>
        </div>
      )}
      <PagedList {...list} testId="mining-records" renderItem={(record) => <RecordRow key={record.id} record={record} />} />
    </div>
  );
}
