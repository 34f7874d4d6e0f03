import type { ReactNode } from 'react';
import { DotLoading, ErrorBlock, InfiniteScroll, List } from 'antd-mobile';
import { useTranslation } from '../../lib/i18n/translator';

interface PagedListProps<T> {
  items: readonly T[];
  hasMore: boolean;
  /** Changes when the list starts again, to restart the infinite scroll. */
  generation: number | string;
  loadMore: () => Promise<void>;
  renderItem: (item: T) => ReactNode;
  testId?: string;
}

/** A newest-first record list that loads the next page as it scrolls into view; "no records" when empty. */
export function PagedList<T>({ items, hasMore, generation, loadMore, renderItem, testId }: PagedListProps<T>) {
  const { t } = useTranslation();
  return (
    <>
      {items.length > 0 && (
        <List className="record-list" data-testid={testId}>
          {items.map(renderItem)}
        </List>
      )}
      {!hasMore && items.length === 0 && (
        <ErrorBlock
          status="empty"
          className="record-empty"
          title={t('records.empty')}
          description=""
          data-testid="records-empty"
        />
      )}
      <InfiniteScroll key={generation} loadMore={loadMore} hasMore={hasMore}>
        {(more, failed, retry) =>
          failed ? (
            <span>
              {t('records.loadFailed')}{' '}
              <button type="button" className="link-button" onClick={() => void retry()}>
                {t('records.retry')}
              </button>
            </span>
          ) : more ? (
            <span>
              {t('common.loading')}
              <DotLoading />
            </span>
          ) : items.length > 0 ? (
            <span>{t('records.noMore')}</span>
          ) : null
        }
      </InfiniteScroll>
    </>
  );
}
