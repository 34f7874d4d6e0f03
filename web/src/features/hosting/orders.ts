import type { HostingLogItem, HostingOrder, HostingOrderStatus, HostingPlan } from '@custos/contract';
import { hasMorePages, type Page } from '../../lib/paging/pages';

/** antd-mobile Tag colours. */
export type TagColor = 'default' | 'primary' | 'success' | 'warning' | 'danger';

/** Earning is blue, ended at term is done (green), ended early is amber. */
export const ORDER_STATUS_COLOURS: Record<HostingOrderStatus, TagColor> = {
  active: 'primary',
  expired: 'success',
  redeemed: 'warning',
};

/** The locale key of a status tag: "In progress", "Expired", "Redeemed early". */
export function orderStatusKey(status: HostingOrderStatus): `hosting.status.${HostingOrderStatus}` {
  return `hosting.status.${status}`;
}

/** The order list's segments: everything, what still earns, what has ended (at term or early). */
export const ORDER_SEGMENTS = ['all', 'active', 'ended'] as const;
export type OrderSegment = (typeof ORDER_SEGMENTS)[number];

export function isEnded(order: Pick<HostingOrder, 'status'>): boolean {
  return order.status !== 'active';
}

type OrdersFetch = (page: number, pageSize: number) => Promise<Page<HostingOrder>>;

/**
 * Pages of ended orders (expired and redeemed) for a list that asks for pages 1, 2, 3…: the API
 * filters one status at a time, so this walks the unfiltered, newest-first list in chunks and keeps
 * the ended ones, skipping chunks with none, so a page is empty only when nothing is left. Page 1
 * starts the walk again; the answer of a walk that was started again meanwhile is empty (the list
 * drops it anyway).
 */
export function endedOrdersPager(fetchAll: OrdersFetch, chunk = 50): OrdersFetch {
  let next = 1;
  let walk = 0;
  return async (page, pageSize) => {
    if (page === 1) {
      next = 1;
      walk += 1;
    }
    const mine = walk;
    let underlying = next;
    for (;;) {
      const result = await fetchAll(underlying, chunk);
      if (mine !== walk) return { items: [], total: 0, page, pageSize };
      underlying += 1;
      const items = result.items.filter(isEnded);
      const exhausted = !hasMorePages(result);
      if (items.length > 0 || exhausted) {
        next = underlying;
        // `total` only tells the list whether to ask again.
        return { items, total: exhausted ? page * pageSize : (page + 1) * pageSize, page, pageSize };
      }
    }
  };
}

export interface AutoRenewControl {
  /** Only active orders have the switch. */
  shown: boolean;
  checked: boolean;
  /**
   * Turning it on needs the order's plan to be open and to allow renewal (as the server checks);
   * turning it off is always possible.
   */
  disabled: boolean;
}

export function autoRenewControl(
  order: Pick<HostingOrder, 'status' | 'autoRenew' | 'planId'>,
  plans: readonly Pick<HostingPlan, 'id' | 'autoRenewAllowed' | 'status'>[],
): AutoRenewControl {
  if (order.status !== 'active') return { shown: false, checked: order.autoRenew, disabled: true };
  const plan = plans.find((candidate) => candidate.id === order.planId);
  const mayTurnOn = plan !== undefined && plan.status === 'active' && plan.autoRenewAllowed;
  return { shown: true, checked: order.autoRenew, disabled: !order.autoRenew && !mayTurnOn };
}

/** "3 / 30": days of interest paid so far out of the period, never more than the period. */
export function daysProgress(order: Pick<HostingOrder, 'daysAccrued' | 'periodDays'>): { accrued: number; period: number } {
  return { accrued: Math.max(0, Math.min(order.daysAccrued, order.periodDays)), period: order.periodDays };
}

// ── Log ──────────────────────────────────────────────────────────────────────────────────────────

/** The locale key of a log line: "Deposited", "Daily interest", "Renewed", … */
export function logEventKey(event: HostingLogItem['event']): `hosting.log.${HostingLogItem['event']}` {
  return `hosting.log.${event}`;
}

/** Whether the line's amount is money coming to the member's cash (interest, principal back). */
export function logAmountSign(event: HostingLogItem['event']): 'plus' | 'none' {
  return event === 'accrued' || event === 'expired' || event === 'redeemed' ? 'plus' : 'none';
}

export type LogRow = HostingLogItem & { id: string };

/** Log lines have no id of their own: what they say and when is unique per order, and keeps a line from showing twice while paging. */
export function logRowId(item: HostingLogItem): string {
  return [item.event, item.day ?? '', item.at, item.amount ?? ''].join('|');
}

export function withLogIds(page: Page<HostingLogItem>): Page<LogRow> {
  return { ...page, items: page.items.map((item) => ({ ...item, id: logRowId(item) })) };
}
