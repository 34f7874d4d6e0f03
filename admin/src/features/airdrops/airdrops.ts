import type { AirdropRequest, AirdropStatus } from '@custos/contract';

/** What the console's airdrop form holds before it becomes a request. */
export interface AirdropForm {
  name: string;
  amount: string;
  selection: 'level' | 'list';
  minLevel: number;
  members: string;
  when: 'now' | 'at';
  /** A `datetime-local` value, read in the browser's time zone. */
  arriveAt: string;
}

export const EMPTY_AIRDROP_FORM: AirdropForm = {
  name: '',
  amount: '',
  selection: 'level',
  minLevel: 1,
  members: '',
  when: 'now',
  arriveAt: '',
};

/** The e-mails or member ids typed one a line (or separated by commas, semicolons or spaces). */
export function parseMemberList(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((token) => token.trim())
    .filter((token) => token.length > 0);
}

export function toAirdropRequest(form: AirdropForm): AirdropRequest {
  return {
    name: form.name.trim(),
    amount: form.amount.trim(),
    selection: form.selection,
    ...(form.selection === 'level' ? { minLevel: form.minLevel } : { members: parseMemberList(form.members) }),
    arriveAt: form.when === 'at' && form.arriveAt ? new Date(form.arriveAt).toISOString() : null,
  };
}

export const AIRDROP_STATUS_LABELS: Record<AirdropStatus, string> = {
  scheduled: 'Scheduled',
  arriving: 'Arriving',
  arrived: 'Arrived',
  cancelled: 'Cancelled',
};

export const AIRDROP_STATUS_COLOURS: Record<AirdropStatus, string> = {
  scheduled: 'blue',
  arriving: 'gold',
  arrived: 'green',
  cancelled: 'default',
};

/** Only a scheduled campaign whose time has not come may be cancelled (the server decides; this hides the button). */
export function mayCancel(campaign: { status: AirdropStatus; arriveAt: string }, nowMs: number): boolean {
  return campaign.status === 'scheduled' && Date.parse(campaign.arriveAt) > nowMs;
}
