import {
  airdropCampaignSchema,
  airdropListResponse,
  airdropPreviewResponse,
  airdropRecipientsResponse,
  type AirdropRequest,
} from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

/** Airdrop campaigns, newest first. */
export function listAirdrops(page: number, pageSize: number) {
  return consoleRequest({
    method: 'GET',
    path: `/api/admin/airdrops?page=${page}&pageSize=${pageSize}`,
    data: airdropListResponse,
  });
}

/** Who a campaign would pay and the total, nothing saved. */
export function previewAirdrop(request: AirdropRequest) {
  return consoleRequest({ method: 'POST', path: '/api/admin/airdrops/preview', body: request, data: airdropPreviewResponse });
}

/** Creates a campaign (audited); its recipients are fixed now. */
export function createAirdrop(request: AirdropRequest) {
  return consoleRequest({ method: 'POST', path: '/api/admin/airdrops', body: request, data: airdropCampaignSchema });
}

/** Cancels a campaign before it arrives (audited). */
export function cancelAirdrop(id: string) {
  return consoleRequest({
    method: 'POST',
    path: `/api/admin/airdrops/${encodeURIComponent(id)}/cancel`,
    body: {},
    data: airdropCampaignSchema,
  });
}

/** A campaign's recipients and whether each is paid. */
export function listAirdropRecipients(id: string, page: number, pageSize: number) {
  return consoleRequest({
    method: 'GET',
    path: `/api/admin/airdrops/${encodeURIComponent(id)}/recipients?page=${page}&pageSize=${pageSize}`,
    data: airdropRecipientsResponse,
  });
}
