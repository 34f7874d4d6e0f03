import { money, type AirdropCampaign, type AirdropPreview, type AirdropRecipient, type AirdropRequest } from '@custos/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import type { RequestOrigin } from '../../http/origin.js';
import { fourPlaces } from '../../lib/decimal-text.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import type { Clock } from '../../lib/clock.js';
import type { LedgerService } from '../ledger/ledger.service.js';
import type { MemberEventPublisher } from '../notifications/member-events.service.js';
import type { TeamRepository } from '../team/team.repository.js';
import { rulesOf } from '../team/team.service.js';
import { localTime } from '../../lib/platform-time.js';
import type { AirdropsRepository, Audience, CampaignRow, RecipientRow } from './airdrops.repository.js';

/** Recipients paid per transaction while a campaign arrives. */
const PAY_BATCH = 100;
const PREVIEW_SAMPLE = 20;
/** How many unknown names a refusal lists (the rest are counted). */
const UNKNOWN_SHOWN = 10;

function iso(value: Date | string): string {
  return new Date(value).toISOString();
}

function toCampaign(row: CampaignRow): AirdropCampaign {
  return {
    id: row.id,
    name: row.name,
    asset: 'RAB',
    amount: fourPlaces(row.amount),
    selection: row.selection,
    minLevel: row.min_level,
    day: row.day,
    arriveAt: iso(row.arrive_at),
    status: row.status,
    recipients: row.recipients,
    paid: row.paid,
    total: fourPlaces(row.total),
    createdBy: row.created_by,
    createdAt: iso(row.created_at),
    cancelledAt: row.cancelled_at === null ? null : iso(row.cancelled_at),
    arrivedAt: row.arrived_at === null ? null : iso(row.arrived_at),
  };
}

function toRecipient(row: RecipientRow): AirdropRecipient {
  return { memberId: row.member_id, email: row.email, nickname: row.nickname };
}

/** A campaign as asked for, checked: when it arrives, the platform day that is, and who receives it. */
interface Plan {
  name: string;
  amount: string;
  arriveAt: Date;
  day: string;
  audience: Audience;
  request: AirdropRequest;
}

/**
 * Airdrop campaigns (docs/decisions/025-team-operations.md): an operator gives RAB to members chosen
 * by level (at or above a level under the level table of the campaign's day) or by a list; the
 * recipients are fixed at creation, as previewed. At its time the arrival job pays each recipient one
 * ledger entry from the `rewards` account, keyed by campaign and account, so re-runs, concurrent runs
 * and a crash mid-way pay each recipient exactly once; a cancel and the arrival take turns on the
 * campaign's row, so a campaign is either cancelled with nothing paid or arrives in full.
 */
export class AirdropsService {
  private scheduler: ((delayS: number) => Promise<void>) | undefined;

  constructor(
    private readonly db: Db,
    private readonly repository: AirdropsRepository,
    private readonly team: TeamRepository,
    private readonly ledger: LedgerService,
    private readonly audit: AuditRepository,
    private readonly events: MemberEventPublisher,
    private readonly timeZone: string,
    private readonly clock: Clock,
    private readonly logger: FastifyBaseLogger,
  ) {}

  /**
   * Where jobs run, a new campaign asks for an arrival run at its time (the minute job catches any
   * missed, e.g. across a restart).
   */
  useScheduler(scheduler: (delayS: number) => Promise<void>): void {
    this.scheduler = scheduler;
  }

  private async plan(request: AirdropRequest): Promise<Plan> {
    const now = this.clock.now();
    const arriveAt = request.arriveAt ? new Date(request.arriveAt) : now;
    if (arriveAt.getTime() < now.getTime()) throw AppError.badRequest('airdrop.arrive_in_past');
    const day = localTime(arriveAt, this.timeZone).date;
    const amount = money.formatMoney(money.parseMoney(request.amount));
    if (request.selection === 'level') {
      const minLevel = request.minLevel!;
      const version = await this.team.versionOn(day);
      const levels = version ? await this.team.levels(version.id) : [];
      if (!levels.some((level) => level.level === minLevel))
        throw AppError.badRequest('airdrop.level_unknown', { level: minLevel, day });
      return {
        name: request.name,
        amount,
        arriveAt,
        day,
        request,
        audience: { kind: 'level', rules: rulesOf(levels), minLevel },
      };
    }
    const tokens = [...new Set(request.members!.map((token) => token.trim()).filter((token) => token.length > 0))];
    const found = await this.repository.resolve(tokens);
    const unknown = found.filter((row) => row.account_id === null).map((row) => row.token);
    if (unknown.length > 0) {
      const shown = unknown.slice(0, UNKNOWN_SHOWN).join(', ');
      const more = unknown.length > UNKNOWN_SHOWN ? ` (+${unknown.length - UNKNOWN_SHOWN})` : '';
      throw AppError.badRequest('airdrop.unknown_members', { members: `${shown}${more}` });
    }
    const accountIds = [...new Set(found.map((row) => row.account_id!))];
    return { name: request.name, amount, arriveAt, day, request, audience: { kind: 'list', accountIds } };
  }

  /** Who a campaign would pay and how much in all, without saving anything. */
  async preview(request: AirdropRequest): Promise<AirdropPreview> {
    const plan = await this.plan(request);
    const { count, sample } = await this.repository.preview(plan.audience, PREVIEW_SAMPLE);
    return {
      day: plan.day,
      arriveAt: plan.arriveAt.toISOString(),
      recipients: count,
      total: money.formatMoney(money.multiply(money.parseMoney(plan.amount), String(count), 'down')),
      sample: sample.map(toRecipient),
    };
  }

  async create(operatorId: string, request: AirdropRequest, origin: RequestOrigin): Promise<AirdropCampaign> {
    const plan = await this.plan(request);
    const id = await this.db.transaction(async (tx) => {
      const created = await this.repository.create(
        tx,
        {
          name: plan.name,
          amount: plan.amount,
          selection: request.selection,
          minLevel: request.selection === 'level' ? request.minLevel! : null,
          day: plan.day,
          arriveAt: plan.arriveAt,
          createdBy: operatorId,
        },
        plan.audience,
      );
      if (!created) throw AppError.badRequest('airdrop.no_recipients');
      await this.audit.record(
        {
          operatorId,
          action: 'airdrop.created',
          targetType: 'airdrop_campaign',
          targetId: created.id,
          before: null,
          after: {
            name: plan.name,
            asset: 'RAB',
            amount: plan.amount,
            selection: request.selection,
            minLevel: request.selection === 'level' ? request.minLevel : null,
            members: request.selection === 'list' ? request.members : null,
            day: plan.day,
            arriveAt: plan.arriveAt.toISOString(),
            recipients: created.recipients,
            total: fourPlaces(created.total),
          },
          ip: origin.ip,
          requestId: origin.requestId,
        },
        tx,
      );
      return created.id;
    });
    await this.schedule(plan.arriveAt);
    return this.campaign(id);
  }

  private async schedule(arriveAt: Date): Promise<void> {
    if (!this.scheduler) return;
    const delayS = Math.max(0, Math.ceil((arriveAt.getTime() - this.clock.now().getTime()) / 1000));
    try {
      await this.scheduler(delayS);
    } catch (error) {
      // The minute job pays it anyway; a failed send only delays it.
      this.logger.warn({ err: error }, 'could not schedule an airdrop arrival run');
    }
  }

  /** Cancels a campaign whose time has not come; refused once it is arriving, has arrived or was cancelled. */
  async cancel(operatorId: string, id: string, origin: RequestOrigin): Promise<AirdropCampaign> {
    await this.db.transaction(async (tx) => {
      const campaign = await this.repository.lock(tx, id);
      if (!campaign) throw AppError.notFound();
      if (campaign.status !== 'scheduled' || new Date(campaign.arrive_at).getTime() <= this.clock.now().getTime()) {
        throw AppError.conflict('airdrop.not_cancellable');
      }
      await this.repository.setStatus(tx, id, 'cancelled', operatorId);
      await this.audit.record(
        {
          operatorId,
          action: 'airdrop.cancelled',
          targetType: 'airdrop_campaign',
          targetId: id,
          before: { status: 'scheduled' },
          after: { status: 'cancelled' },
          ip: origin.ip,
          requestId: origin.requestId,
        },
        tx,
      );
    });
    return this.campaign(id);
  }

  async campaign(id: string): Promise<AirdropCampaign> {
    const row = await this.repository.campaign(id);
    if (!row) throw AppError.notFound();
    return toCampaign(row);
  }

  async campaigns(page: number, pageSize: number) {
    const { rows, total } = await this.repository.campaigns(pageSize, (page - 1) * pageSize);
    return { items: rows.map(toCampaign), total, page, pageSize };
  }

  async recipients(id: string, page: number, pageSize: number) {
    if (!(await this.repository.campaign(id))) throw AppError.notFound();
    const { rows, total } = await this.repository.recipients(id, pageSize, (page - 1) * pageSize);
    return { items: rows.map((row) => ({ ...toRecipient(row), paid: row.paid })), total, page, pageSize };
  }

  /** The arrival job: pays every campaign whose time has come. Safe to run again, and on several instances at once. */
  async arriveDue(): Promise<number> {
    let arrived = 0;
    for (const id of await this.repository.due(this.clock.now())) {
      if (await this.arrive(id)) arrived += 1;
    }
    return arrived;
  }

  /** Pays one campaign's unpaid recipients; true once it has fully arrived. */
  async arrive(id: string): Promise<boolean> {
    const started = await this.db.transaction(async (tx) => {
      const campaign = await this.repository.lock(tx, id);
      if (!campaign || campaign.status === 'cancelled' || campaign.status === 'arrived') return null;
      if (campaign.status === 'scheduled') {
        if (new Date(campaign.arrive_at).getTime() > this.clock.now().getTime()) return null;
        // From here the campaign can no longer be cancelled.
        await this.repository.setStatus(tx, id, 'arriving');
      }
      return { name: campaign.name, amount: money.parseMoney(campaign.amount) };
    });
    if (!started) return false;
    for (;;) {
      const paid = await this.db.transaction(async (tx) => {
        const batch = await this.repository.unpaid(tx, id, PAY_BATCH);
        for (const recipient of batch) {
          const posted = await this.ledger.post(tx, {
            idempotencyKey: `airdrop:${id}:${recipient.account_id}`,
            kind: 'airdrop',
            referenceType: 'airdrop_campaign',
            referenceId: id,
            postings: [
              {
                account: { ownerAccountId: recipient.account_id, asset: 'RAB', purpose: 'available' },
                amount: started.amount,
                recordType: 'airdrop',
              },
              { account: { platformCode: 'rewards', asset: 'RAB' }, amount: money.negate(started.amount), recordType: 'airdrop' },
            ],
          });
          await this.repository.markPaid(tx, id, recipient.account_id, posted.entryId);
          if (!posted.duplicate) {
            await this.events.publish(tx, recipient.member_id, {
              kind: 'airdrop.arrived',
              campaignId: id,
              name: started.name,
              amount: money.formatMoney(started.amount),
            });
          }
        }
        return batch.length;
      });
      if (paid === 0) break;
    }
    // Recipients another run holds are still being paid: that run finishes the campaign.
    return this.db.transaction((tx) => this.repository.finish(tx, id));
  }
}
