import type { AdminOtcListing, OtcListingState, OtcOrderState, OtcSettings, OtcSide } from '@custos/contract';
import { AppError } from '../../http/app-error.js';
import { addDays, instantOf } from '../../lib/platform-time.js';
import type { OperatorActor, OtcDeps } from './otc.shared.js';
import { OtcUnit } from './otc.unit.js';
import type { OtcEscrow } from './otc.escrow.js';
import type { OtcViews } from './otc.views.js';

/** The console's OTC pages that rule nothing: settings, listings (and revoking one), orders, chat and the escrow check. */
export class OtcConsoleService extends OtcUnit {
  constructor(
    deps: OtcDeps,
    private readonly escrow: OtcEscrow,
    private readonly views: OtcViews,
  ) {
    super(deps);
  }

  getSettings(): Promise<OtcSettings> {
    return this.settings.get('otc');
  }

  async updateSettings(actor: OperatorActor, next: OtcSettings): Promise<OtcSettings> {
    const before = await this.settings.get('otc');
    await this.db.transaction(async (tx) => {
      await this.settings.set('otc', next, actor.operatorId, tx);
      await this.recordAudit(tx, actor, 'otc.settings_updated', 'setting', 'otc', before, next);
    });
    return this.settings.get('otc');
  }

  async adminListings(
    filter: { state?: OtcListingState | undefined; side?: OtcSide | undefined; query?: string | undefined },
    page: number,
    pageSize: number,
  ) {
    const { rows, total } = await this.repository.listings(filter, pageSize, (page - 1) * pageSize);
    const parties = await this.views.adminParties(rows.map((row) => row.member_id));
    const reputations = await this.repository.reputations([...new Set(rows.map((row) => row.member_id))], this.now());
    const items: AdminOtcListing[] = await Promise.all(
      rows.map(async (row) => ({ ...(await this.views.toMyListing(row, reputations)), lister: parties.get(row.member_id)! })),
    );
    return { items, total, page, pageSize };
  }

  async adminRevoke(actor: OperatorActor, listingId: string, reason: string) {
    await this.db.transaction(async (tx) => {
      const listing = await this.repository.lockListing(tx, listingId);
      if (!listing) throw AppError.notFound();
      if (listing.state !== 'matching') throw AppError.conflict('otc.listing_closed');
      await this.escrow.closeListing(tx, listing, 'operator', reason);
      await this.recordAudit(
        tx,
        actor,
        'otc.listing_revoked',
        'otc_listing',
        listingId,
        { state: listing.state, available: listing.available },
        { state: 'cancelled', reason },
      );
    });
    const { items } = await this.adminListings({ query: (await this.repository.findListing(listingId))!.listing_no }, 1, 1);
    return items[0]!;
  }

  async adminOrders(
    filter: {
      state?: OtcOrderState | undefined;
      query?: string | undefined;
      side?: OtcSide | undefined;
      from?: string | undefined;
      to?: string | undefined;
    },
    page: number,
    pageSize: number,
  ) {
    // Days are platform days: from the first day's midnight to the midnight after the last one.
    const { rows, total } = await this.repository.orders(
      {
        ...(filter.state ? { state: filter.state } : {}),
        ...(filter.query ? { query: filter.query } : {}),
        ...(filter.side ? { side: filter.side } : {}),
        ...(filter.from ? { createdFrom: instantOf(filter.from, '00:00', this.options.timeZone) } : {}),
        ...(filter.to ? { createdBefore: instantOf(addDays(filter.to, 1), '00:00', this.options.timeZone) } : {}),
      },
      pageSize,
      (page - 1) * pageSize,
    );
    return { items: await this.views.adminOrderViews(rows), total, page, pageSize };
  }

  async adminChat(orderId: string, before: string | undefined, limit: number) {
    const order = await this.repository.findOrder(orderId);
    if (!order) throw AppError.notFound();
    const page = await this.chat.orderMessages(order.conversation_id!, before, limit);
    return {
      items: page.items.map((message) => ({ ...this.views.toChatMessage(message, order, null), agentName: message.agentName })),
      nextBefore: page.nextBefore,
    };
  }

  async adminChatImage(orderId: string, messageId: string) {
    const order = await this.repository.findOrder(orderId);
    if (!order) throw AppError.notFound();
    return this.chat.orderImage(order.conversation_id!, messageId);
  }

  async adminEvidence(orderId: string, uploadId: string) {
    const image = await this.arbitration.evidenceOfOrder(orderId, uploadId);
    if (!image) throw AppError.notFound();
    return image;
  }

  /** Escrow against the books (see the repository): empty when every hold matches its listing or order. */
  escrowProblems() {
    return this.repository.escrowProblems();
  }
}
