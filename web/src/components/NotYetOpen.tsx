import { ErrorBlock } from 'antd-mobile';
import { useTranslation } from '../lib/i18n/translator';

/** The spec's "not yet open" state for a feature that has not been released. */
export function NotYetOpen() {
  const { t } = useTranslation();
  return (
    <div className="not-yet-open" data-testid="not-yet-open">
      <ErrorBlock status="empty" title={t('common.notYetOpen')} description={t('common.notYetOpenHint')} />
    </div>
  );
}
