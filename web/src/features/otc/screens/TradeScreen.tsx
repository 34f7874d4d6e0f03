import { OtcMarket } from '../components/OtcMarket';

/**
 * index1 (Trade tab). Today it is the OTC market; issue 15 adds its contracts (settlement orders) as
 * a segment of their own here, above the market, with the market as the other segment.
 */
export default function TradeScreen() {
  return <OtcMarket />;
}
