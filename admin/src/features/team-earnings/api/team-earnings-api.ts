import {
  adminTeamEarningsResponse,
  adminTeamPromotionsResponse,
  teamEarningsSettingsSchema,
  type TeamEarningType,
  type TeamEarningsSettings,
} from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

export interface TeamEarningsFilter {
  /** A member's e-mail (exact). */
  email: string;
  day: string;
  type: TeamEarningType | null;
  status: 'to_arrive' | 'arrived' | null;
}

/** Team earnings per member, day and type, newest day first. */
export function listTeamEarnings(filter: TeamEarningsFilter, page: number, pageSize: number) {
  const parameters = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
  if (filter.email) parameters.set('email', filter.email);
  if (filter.day) parameters.set('day', filter.day);
  if (filter.type) parameters.set('type', filter.type);
  if (filter.status) parameters.set('status', filter.status);
  return consoleRequest({
    method: 'GET',
    path: `/api/admin/team/earnings?${parameters.toString()}`,
    data: adminTeamEarningsResponse,
  });
}

/** Promotion bonuses: the day each member first reached each level. */
export function listTeamPromotions(email: string, page: number, pageSize: number) {
  const parameters = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
  if (email) parameters.set('email', email);
  return consoleRequest({
    method: 'GET',
    path: `/api/admin/team/promotions?${parameters.toString()}`,
    data: adminTeamPromotionsResponse,
  });
}

/** The arrival delay: days after its own day a day's team earnings arrive. */
export function getTeamEarningsSettings() {
  return consoleRequest({ method: 'GET', path: '/api/admin/team/earnings/settings', data: teamEarningsSettingsSchema });
}

export function saveTeamEarningsSettings(settings: TeamEarningsSettings) {
  return consoleRequest({
    method: 'PUT',
    path: '/api/admin/team/earnings/settings',
    body: settings,
    data: teamEarningsSettingsSchema,
  });
}
