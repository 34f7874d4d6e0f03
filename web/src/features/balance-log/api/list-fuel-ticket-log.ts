import { fuelTicketLogResponse } from '@custos/contract';
import { apiRequest } from '../../../lib/api/client';

export function listFuelTicketLog(query: { asset?: 'FUEL' | 'TICKET'; page: number; pageSize: number }) {
  return apiRequest({ method: 'GET', path: '/api/user/fuel_ticket_log', query, data: fuelTicketLogResponse });
}
