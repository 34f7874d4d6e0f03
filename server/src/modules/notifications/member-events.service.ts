import type { FastifyBaseLogger } from 'fastify';
import { memberEventData, type MemberEventData } from '@custos/contract';
import type { Database, Tx } from '../../db/client.js';
import { DEFAULT_CHANNEL_OPTIONS, EventHub, type ChannelOptions } from './event-hub.js';
import type { MemberEventsRepository } from './member-events.repository.js';

export { DEFAULT_CHANNEL_OPTIONS, type ChannelOptions, type ChannelSink } from './event-hub.js';

/** What a feature needs to tell a member something: an event stored in its own transaction. */
export interface MemberEventPublisher {
  publish(tx: Tx, memberId: string, data: MemberEventData): Promise<string>;
  publishMany(tx: Tx, events: readonly { memberId: string; data: MemberEventData }[]): Promise<void>;
}

/** Events are kept this long; a channel away for longer starts afresh (its screens refetch anyway). */
export const MEMBER_EVENT_RETENTION_S = 7 * 24 * 3600;

/**
 * Live notifications (decision 022): one channel per member, keyed by the member id. Features
 * publish events in their own transactions; the hub (event-hub.ts) delivers them on any instance.
 */
export class MemberEventsService extends EventHub implements MemberEventPublisher {
  constructor(
    database: Database,
    private readonly repository: MemberEventsRepository,
    logger: FastifyBaseLogger,
    options: ChannelOptions = DEFAULT_CHANNEL_OPTIONS,
  ) {
    super(database, repository, logger, options, 'member events');
  }

  /** Stores an event in the caller's transaction; open channels hear of it once that commits. */
  async publish(tx: Tx, memberId: string, data: MemberEventData): Promise<string> {
    const { kind, ...payload } = memberEventData.parse(data);
    return this.repository.insert(tx, memberId, kind, payload);
  }

  /** `publish` for many events in one statement. */
  async publishMany(tx: Tx, events: readonly { memberId: string; data: MemberEventData }[]): Promise<void> {
    await this.repository.insertMany(
      tx,
      events.map((event) => {
        const { kind, ...payload } = memberEventData.parse(event.data);
        return { memberId: event.memberId, kind, payload };
      }),
    );
  }

  removeExpired(): Promise<number> {
    return this.repository.deleteOlderThan(MEMBER_EVENT_RETENTION_S);
  }
}
