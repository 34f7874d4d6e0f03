import { List, Tag } from 'antd-mobile';
import { useTranslation } from '../../../lib/i18n/translator';
import { displayMoney } from '../../../lib/format/money';
import { formatDateTime } from '../../../lib/format/time';
import { DIVIDEND_STATUS_COLOURS, dividendStatusKey, type DividendRow } from '../dividend';

/** One day's share: the day, the custody it was computed from, the amount and whether it was claimed. */
export function DividendRecordRow({ record }: { record: DividendRow }) {
  const { t } = useTranslation();
  return (
    <List.Item
      data-testid="dividend-record"
      data-day={record.day}
      data-status={record.status}
      description={
        <>
          <div data-testid="dividend-record-custody">{t('dividend.recordCustody', { amount: displayMoney(record.custody) })}</div>
          {record.claimedAt && (
            <div className="record-time" data-testid="dividend-record-claimed-at">
              {t('dividend.claimedAt', { time: formatDateTime(record.claimedAt) })}
            </div>
          )}
        </>
      }
      extra={
        <div className="balance-amounts">
          <div className="amount-plus" data-testid="dividend-record-amount">
            +{displayMoney(record.amount)} USDT
          </div>
          <Tag color={DIVIDEND_STATUS_COLOURS[record.status]} data-testid="dividend-record-status" data-status={record.status}>
            {t(dividendStatusKey(record.status))}
          </Tag>
        </div>
      }
    >
      <span data-testid="dividend-record-day">{t('dividend.recordDay', { day: record.day })}</span>
    </List.Item>
  );
}
