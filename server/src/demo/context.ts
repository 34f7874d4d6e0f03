import type { Asset } from '@custos/contract';
import type { Services } from '../container.js';
import type { RequestOrigin } from '../http/origin.js';
import type { MemberSessionContext } from '../modules/auth/auth.service.js';

// What every demo domain shares (decision 019): the demo member and the context a domain's seed
// function acts through. seed.ts runs the domains; the domains import only this file, never seed.ts.

/** The demo member: printed on the terminal at every demo start. */
export const DEMO_MEMBER = {
  email: 'demo@custos.example',
  password: 'demo-member-pass',
  tradePassword: 'demo-trade-pass',
} as const;

export interface DemoMember {
  email: string;
  memberId: string;
  accountId: string;
  inviteCode: string;
}

/** What each domain function gets: the services, the demo people and a way to act as a member. */
export interface DemoContext {
  services: Services;
  /** The member app's build the server serves (WEB_DIST_DIR), when there is one: the demo's hot bundle. */
  webDistDir?: string | undefined;
  origin: RequestOrigin;
  /** The demo operator (super admin), for operator actions; audited under its name. */
  operatorId: string;
  financeOperatorId: string;
  /** The member and its main account, for read-only look-ups (no session is opened). */
  member(email: string): Promise<DemoMember>;
  /** A real member session (opened once per member and seed run, closed at its end). */
  actAs(email: string): Promise<MemberSessionContext>;
  /** A view of the member for the services' read calls, which look only at the member and account. */
  readAs(email: string): Promise<MemberSessionContext>;
  /**
   * Registers a demo member (the demo's passwords) through the real sign-up with `invitationCode`
   * (the inviter's own code puts it in the inviter's team), unless the e-mail is a member already.
   */
  join(email: string, invitationCode: string): Promise<void>;
  /**
   * An opening balance: a manual credit proposed by demo-finance and approved by demo (four eyes,
   * audited), unless the member's account already had a manual credit of that asset.
   */
  creditOnce(email: string, asset: Asset, amount: string): Promise<void>;
}
