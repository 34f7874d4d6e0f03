import { useCallback } from 'react';
import { PagedList } from '../../../components/lists/PagedList';
import { usePagedList } from '../../../lib/paging/use-paged-list';
import { getAiInfo } from '../api/get-ai-info';
import { DividendRecordRow } from '../components/DividendRecordRow';
import { withDividendIds } from '../dividend';

/** blance_record4: the AI dividend release records, newest first. */
export default function DividendRecordsScreen() {
  const fetchPage = useCallback(
    (page: number, pageSize: number) => getAiInfo({ page, pageSize }).then((info) => withDividendIds(info.records)),
    [],
  );
  const list = usePagedList(fetchPage);
  return (
    <div className="records-screen">
      <PagedList
        {...list}
        testId="dividend-records"
        renderItem={(record) => <DividendRecordRow key={record.id} record={record} />}
      />
    </div>
  );
}
