import { useTranslation } from '../../../lib/i18n/translator';
import type { OtcActor } from '@custos/contract';
import { formatDateTime } from '../../../lib/format/time';

export interface TrailItem {
  step: string;
  actor: OtcActor;
  orderNo: string | null;
  note: string | null;
  at: string;
}

/** Every step of an order or a listing with who took it and when, oldest first. */
export function OrderTrail({ items, stepKey }: { items: readonly TrailItem[]; stepKey: 'orderSteps' | 'listingSteps' }) {
  const { t } = useTranslation();
  return (
    <ol className="otc-trail" data-testid="otc-trail">
      {items.map((item, index) => (
        <li key={`${item.step}-${item.at}-${index}`} data-testid="otc-trail-step" data-step={item.step}>
          <div className="otc-trail-head">
            <span className="otc-trail-step">{t(`otc.${stepKey}.${item.step}` as 'otc.orderSteps.created')}</span>
            <span className="otc-trail-time" data-testid="otc-trail-time">
              {formatDateTime(item.at)}
            </span>
          </div>
          <div className="otc-trail-meta">
            {t(`otc.actors.${item.actor}`)}
            {item.orderNo ? ` · ${t('otc.orderNo', { no: item.orderNo })}` : ''}
            {item.note ? ` · ${item.note}` : ''}
          </div>
        </li>
      ))}
    </ol>
  );
}
