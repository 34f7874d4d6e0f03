import type { AccountList } from '@custos/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import { newInviteCode } from '../../lib/tokens.js';
import type { MemberSessionContext } from '../auth/auth.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { AccountRepository } from './account.repository.js';

/** Main and sub-accounts: each has its own balances; the session acts for one of them at a time. */
export class AccountService {
  constructor(
    private readonly db: Db,
    private readonly accounts: AccountRepository,
    private readonly settings: SettingsService,
  ) {}

  async list(context: MemberSessionContext): Promise<AccountList> {
    const rows = await this.accounts.listForMember(context.member.id);
    return rows.map((row) => ({
      id: row.id,
      kind: row.kind === 'sub' ? 'sub' : 'main',
      nickname: row.nickname,
      avatar: row.avatar,
      inviteCode: row.inviteCode,
      current: row.id === context.account.id,
      createdAt: row.createdAt.toISOString(),
    }));
  }

  /**
   * A new sub-account under the member's main account. It is the same person in the team tree, not a
   * team member: it gets no team node and its custody is the main account's (decision 020).
   */
  async createSub(context: MemberSessionContext, nickname: string): Promise<string> {
    const { subAccountLimit } = await this.settings.get('accounts');
    return this.db.transaction(async (tx) => {
      await this.accounts.lockMember(context.member.id, tx);
      if ((await this.accounts.countSubAccounts(context.member.id, tx)) >= subAccountLimit) {
        throw AppError.conflict('accounts.limit_reached', { limit: subAccountLimit });
      }
      const main = await this.accounts.mainAccount(context.member.id, tx);
      if (!main) throw new Error(`member ${context.member.id} has no main account`);
      let inviteCode = newInviteCode();
      while (await this.accounts.inviteCodeTaken(inviteCode, tx)) inviteCode = newInviteCode();
      const created = await this.accounts.insertSub(
        { memberId: context.member.id, mainAccountId: main.id, inviteCode, nickname },
        tx,
      );
      return created.id;
    });
  }

  /** Only the member's own accounts can be chosen; anything else is "not found". */
  async switchTo(context: MemberSessionContext, accountId: string): Promise<void> {
    const account = await this.accounts.findForMember(context.member.id, accountId);
    if (!account) throw AppError.notFound();
    await this.accounts.switchSession(context.sessionId, account.id);
  }
}
