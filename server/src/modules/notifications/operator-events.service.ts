import type { FastifyBaseLogger } from 'fastify';
import { agentEventData, otcOperatorEventData, type AgentEventData, type OtcOperatorEventData } from '@custos/contract';
import type { Database, Tx } from '../../db/client.js';
import { DEFAULT_CHANNEL_OPTIONS, EventHub, type ChannelOptions } from './event-hub.js';
import type { OperatorEventsRepository } from './operator-events.repository.js';

/** The console's topics: `support` is what customer-service agents hear (the inbox). */
export const SUPPORT_TOPIC = 'support';
/** OTC (decision 031): appeals opened or ruled, order steps and order chat, for the console's OTC screens. */
export const OTC_TOPIC = 'otc';

/** Operator events are only "look again" hints for open consoles: a day covers any reconnect. */
export const OPERATOR_EVENT_RETENTION_S = 24 * 3600;

/**
 * The console's live channel (decision 029): the same hub as the members' (event-hub.ts), keyed by
 * topic instead of member, so an agent on one instance hears a member who wrote on another.
 */
export class OperatorEventsService extends EventHub {
  constructor(
    database: Database,
    private readonly repository: OperatorEventsRepository,
    logger: FastifyBaseLogger,
    options: ChannelOptions = DEFAULT_CHANNEL_OPTIONS,
  ) {
    super(database, repository, logger, options, 'operator events');
  }

  /** Stores a support event in the caller's transaction; open consoles hear of it once that commits. */
  async publishSupport(tx: Tx, data: AgentEventData): Promise<string> {
    const { kind, ...payload } = agentEventData.parse(data);
    return this.repository.insert(tx, SUPPORT_TOPIC, kind, payload);
  }

  /** Stores an OTC event in the caller's transaction (topic `otc`). */
  async publishOtc(tx: Tx, data: OtcOperatorEventData): Promise<string> {
    const { kind, ...payload } = otcOperatorEventData.parse(data);
    return this.repository.insert(tx, OTC_TOPIC, kind, payload);
  }

  removeExpired(): Promise<number> {
    return this.repository.deleteOlderThan(OPERATOR_EVENT_RETENTION_S);
  }
}
