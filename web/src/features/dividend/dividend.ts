import { money, type AiInfo, type DividendAllocation, type DividendStatus, type Money } from '@custos/contract';
import type { Page } from '../../lib/paging/pages';

/** The Hosting tab: custody is what makes a member valid. */
export const HOSTING_PATH = '/pages/index/index2';
/** blance_record4: the release records alone. */
export const DIVIDEND_RECORDS_PATH = '/pages/blance_record/blance_record4';

/** antd-mobile Tag colours. */
export type TagColor = 'default' | 'primary' | 'success' | 'warning' | 'danger';

/** Waiting to be claimed is amber, claimed is done (green). */
export const DIVIDEND_STATUS_COLOURS: Record<DividendStatus, TagColor> = { claimable: 'warning', claimed: 'success' };

/** The locale key of a record's tag: "To be claimed", "Claimed". */
export function dividendStatusKey(status: DividendStatus): `dividend.status.${DividendStatus}` {
  return `dividend.status.${status}`;
}

/** The info without its page of records: the claim card, validity and the last pool. */
export type DividendSummary = Omit<AiInfo, 'records'>;

export function summaryOf(info: AiInfo): DividendSummary {
  const { records: _records, ...summary } = info;
  return summary;
}

/** The claim button is on only when there is something to claim (the server answers 409 otherwise). */
export function canClaim(info: Pick<AiInfo, 'claimable'>): boolean {
  return money.isPositive(money.parseMoney(info.claimable));
}

export interface Validity {
  valid: boolean;
  /** How much more custody makes the member valid; zero once valid. */
  shortBy: Money;
}

/** Valid members (custody at or above the threshold) share in each day's pool. */
export function validity(info: Pick<AiInfo, 'isValid' | 'custodyBalance' | 'validThreshold'>): Validity {
  const missing = money.subtract(money.parseMoney(info.validThreshold), money.parseMoney(info.custodyBalance));
  return { valid: info.isValid, shortBy: info.isValid ? money.ZERO : money.max(missing, money.ZERO) };
}

export type DividendRow = DividendAllocation & { id: string };

/** A member has one share per platform day: the day names a record. */
export function withDividendIds(page: Page<DividendAllocation>): Page<DividendRow> {
  return { ...page, items: page.items.map((record) => ({ ...record, id: record.day })) };
}
