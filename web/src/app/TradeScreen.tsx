import { Segmented } from 'antd-mobile';
import { useTranslation } from '../lib/i18n/translator';
import { useSearchParams } from '../lib/router/router';
import { ContractsMarket } from '../features/contracts/components/ContractsMarket';
import { OtcMarket } from '../features/otc/components/OtcMarket';

type Segment = 'otc' | 'contracts';

/**
 * index1 (Trade tab): two segments, the OTC market (decision 032) and contracts on the operator's
 * forex products (decision 035). The segment lives in the address (`?segment=contracts`), so a link
 * opens it and the back button returns to it. The screen composes the two features, which do not
 * know each other.
 */
export default function TradeScreen() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const segment: Segment = params.get('segment') === 'contracts' ? 'contracts' : 'otc';
  return (
    <div className="trade-screen">
      <div className="trade-segment">
        <Segmented
          block
          value={segment}
          onChange={(value) => setParams(value === 'contracts' ? { segment: 'contracts' } : {}, { replace: true })}
          options={[
            { value: 'otc', label: <span data-testid="trade-segment-otc">{t('contracts.otcSegment')}</span> },
            { value: 'contracts', label: <span data-testid="trade-segment-contracts">{t('contracts.segment')}</span> },
          ]}
          data-testid="trade-segment"
        />
      </div>
      {segment === 'contracts' ? <ContractsMarket /> : <OtcMarket />}
    </div>
  );
}
