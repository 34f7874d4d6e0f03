import { NoticeBar } from 'antd-mobile';
import { useTranslation } from '../../../lib/i18n/translator';
import { Link } from '../../../lib/router/router';
import type { OtcInfo } from '@custos/contract';
import { formatDateTime } from '../../../lib/format/time';
import { IDENTITY_PATH } from '../paths';

/**
 * What stops the member from trading, each with the way out: closed, real name, suspension, too many
 * cancellations, the pause after a security reset (selling, posting and releasing only).
 */
export function EligibilityNotices({ info }: { info: OtcInfo }) {
  const { t } = useTranslation();
  return (
    <>
      {!info.enabled && <NoticeBar color="alert" wrap content={t('otc.closed')} data-testid="otc-closed" />}
      {!info.me.realNameApproved && (
        <NoticeBar
          color="info"
          wrap
          data-testid="otc-real-name"
          content={
            <span>
              {t('otc.realNameRequired')}{' '}
              <Link to={IDENTITY_PATH} data-testid="otc-verify-now">
                {t('otc.verifyNow')}
              </Link>
            </span>
          }
        />
      )}
      {info.me.suspendedUntil !== null && (
        <NoticeBar
          color="alert"
          wrap
          content={t('otc.suspended', { until: formatDateTime(info.me.suspendedUntil) })}
          data-testid="otc-suspended"
        />
      )}
      {info.me.takingBarredUntil !== null && (
        <NoticeBar
          color="alert"
          wrap
          content={t('otc.takingBarred', { until: formatDateTime(info.me.takingBarredUntil) })}
          data-testid="otc-taking-barred"
        />
      )}
      {info.me.coolingOffUntil !== null && (
        <NoticeBar
          color="alert"
          wrap
          content={t('otc.coolingOff', { until: formatDateTime(info.me.coolingOffUntil) })}
          data-testid="otc-cooling-off"
        />
      )}
    </>
  );
}
