import { otcMarketResponse, type OtcPaymentType, type OtcSide } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

/** GET /api/otc/all_sell_list: the market's listings of one side, best price first, optionally filtered. */
export function listMarket(query: {
  page: number;
  pageSize: number;
  side: OtcSide;
  amount?: string;
  paymentType?: OtcPaymentType;
}) {
  return apiRequest({ method: 'GET', path: '/api/otc/all_sell_list', query, data: otcMarketResponse });
}
