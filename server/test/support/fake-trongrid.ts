import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for TronGrid (no TRON node runs on this machine): a small chain of blocks with
 * TRC20 Transfer events, served with the endpoints and the response shapes TronGrid documents
 * (`/wallet/getnowblock`, `/wallet/getblockbynum`, `/v1/contracts/{contract}/events`, paged by
 * `meta.fingerprint`). Tests make blocks, replace them (a reorganisation) and make it fail.
 */

interface FakeEvent {
  transaction_id: string;
  event_index: number;
  block_number: number;
  block_timestamp: number;
  caller_contract_address: string;
  contract_address: string;
  event_name: 'Transfer';
  event: string;
  result: Record<string, string>;
  result_type: Record<string, string>;
}

interface FakeBlock {
  number: number;
  id: string;
  timestamp: number;
  events: FakeEvent[];
}

export interface FakeTransfer {
  /** 20-byte hex with 0x (how TronGrid prints addresses in event results). */
  fromHex: string;
  toHex: string;
  value: bigint;
}

export class FakeTronGrid {
  private blocks: FakeBlock[] = [];
  private server: Server | undefined;
  url = '';
  /** Answer every request with this HTTP status (e.g. 503) while set. */
  failWith: number | undefined;
  /** Answer every request with a body that is not JSON while set. */
  garbage = false;
  /** Events per page (TronGrid allows up to 200); small values exercise paging. */
  pageSize = 200;
  /**
   * How many blocks the event index is behind the head: events of later blocks are not served yet
   * (a block the index has not reached answers as having no events, as TronGrid's does).
   */
  indexLag = 0;
  readonly apiKeysSeen = new Set<string>();
  requests = 0;

  constructor(readonly contract: string) {
    this.mine(1);
  }

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      void this.handle(request, response);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  get head(): number {
    return this.blocks.at(-1)!.number;
  }

  /** Adds `count` blocks, the first with these transfers; returns the transaction ids. */
  mine(count = 1, transfers: FakeTransfer[] = []): string[] {
    const ids: string[] = [];
    for (let index = 0; index < count; index += 1) {
      const number = this.blocks.length === 0 ? 0 : this.head + 1;
      const timestamp = 1_700_000_000_000 + number * 3000;
      const events = (index === 0 ? transfers : []).map((transfer, eventIndex): FakeEvent => {
        const transactionId = randomBytes(32).toString('hex');
        ids.push(transactionId);
        return {
          transaction_id: transactionId,
          event_index: eventIndex,
          block_number: number,
          block_timestamp: timestamp,
          caller_contract_address: this.contract,
          contract_address: this.contract,
          event_name: 'Transfer',
          event: 'Transfer(address indexed from, address indexed to, uint256 value)',
          result: {
            '0': transfer.fromHex,
            '1': transfer.toHex,
            '2': transfer.value.toString(),
            from: transfer.fromHex,
            to: transfer.toHex,
            value: transfer.value.toString(),
          },
          result_type: { from: 'address', to: 'address', value: 'uint256' },
        };
      });
      this.blocks.push({ number, id: blockId(number), timestamp, events });
    }
    return ids;
  }

  /** A reorganisation: blocks from `number` on leave the chain (mine again to replace them). */
  dropFrom(number: number): void {
    this.blocks = this.blocks.filter((block) => block.number < number);
  }

  private blockJson(block: FakeBlock | undefined) {
    if (!block) return {};
    return {
      blockID: block.id,
      block_header: {
        raw_data: {
          number: block.number,
          timestamp: block.timestamp,
          txTrieRoot: '0'.repeat(64),
          witness_address: '41' + '0'.repeat(40),
          parentHash: this.blocks.find((candidate) => candidate.number === block.number - 1)?.id ?? '0'.repeat(64),
          version: 30,
        },
        witness_signature: '0'.repeat(130),
      },
      transactions: block.events.map((event) => ({ txID: event.transaction_id })),
    };
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    this.requests += 1;
    const key = request.headers['tron-pro-api-key'];
    if (typeof key === 'string') this.apiKeysSeen.add(key);
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (this.failWith) return send(this.failWith, { Error: 'service unavailable' });
    if (this.garbage) {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html>bad gateway</html>');
      return;
    }
    const url = new URL(request.url ?? '/', this.url);
    if (request.method === 'POST' && url.pathname === '/wallet/getnowblock') return send(200, this.blockJson(this.blocks.at(-1)));
    if (request.method === 'POST' && url.pathname === '/wallet/getblockbynum') {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { num?: number };
      return send(200, this.blockJson(this.blocks.find((block) => block.number === body.num)));
    }
    const events = /^\/v1\/contracts\/([^/]+)\/events$/.exec(url.pathname);
    if (request.method === 'GET' && events) {
      if (events[1] !== this.contract) return send(200, { data: [], success: true, meta: { at: Date.now(), page_size: 0 } });
      const eventName = url.searchParams.get('event_name');
      const limit = Math.min(Number(url.searchParams.get('limit') ?? 20), this.pageSize);
      const offset = Number(url.searchParams.get('fingerprint') ?? 0);
      const indexed = this.blocks.filter((block) => block.number <= this.head - this.indexLag);
      const blockParam = url.searchParams.get('block_number');
      // Without block_number: the contract's events newest first (order_by=block_timestamp,desc).
      const source =
        blockParam === null
          ? indexed.flatMap((block) => block.events).reverse()
          : (indexed.find((block) => block.number === Number(blockParam))?.events ?? []);
      const all = source.filter((event) => !eventName || event.event_name === eventName);
      const data = all.slice(offset, offset + limit);
      const more = offset + limit < all.length;
      return send(200, {
        data,
        success: true,
        meta: {
          at: Date.now(),
          page_size: data.length,
          ...(more
            ? { fingerprint: String(offset + limit), links: { next: `${this.url}${url.pathname}?fingerprint=${offset + limit}` } }
            : {}),
        },
      });
    }
    return send(404, { Error: `no route ${request.method} ${url.pathname}` });
  }
}

function blockId(number: number): string {
  // TRON block ids start with the block number (8 bytes) followed by 24 bytes of hash.
  return number.toString(16).padStart(16, '0') + randomBytes(24).toString('hex');
}
