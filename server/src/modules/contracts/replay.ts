import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import { CONTRACT_PRICE_PATTERN, compareDecimal } from '@custos/contract';
import type { ContractsService } from './contracts.service.js';

/** One recorded tick: when (ms from the recording's start), which pair, the raw bid and ask. */
export interface RecordedTick {
  offsetMs: number;
  symbol: string;
  bid: string;
  ask: string;
}

/** The committed recording (server/data/contract-ticks.csv), from src/ (tsx) or dist/ (bundle). */
export const RECORDED_TICKS_FILE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  '..',
  'data',
  'contract-ticks.csv',
);

/** Reads a recording: `offset_ms,symbol,bid,ask` lines after a header, offsets not decreasing. */
export function loadRecordedTicks(file: string = RECORDED_TICKS_FILE): RecordedTick[] {
  const lines = readFileSync(file, 'utf8').split('\n').slice(1);
  const ticks: RecordedTick[] = [];
  let last = 0;
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') continue;
    const [offset = '', symbol = '', bid = '', ask = ''] = line.split(',');
    const offsetMs = Number(offset);
    if (
      !Number.isInteger(offsetMs) ||
      offsetMs < last ||
      !CONTRACT_PRICE_PATTERN.test(bid) ||
      !CONTRACT_PRICE_PATTERN.test(ask)
    ) {
      throw new Error(`${file}:${index + 2}: not a recorded tick: ${line}`);
    }
    if (compareDecimal(bid, ask) > 0) throw new Error(`${file}:${index + 2}: bid above ask`);
    last = offsetMs;
    ticks.push({ offsetMs, symbol, bid, ask });
  }
  return ticks;
}

export interface ReplayOptions {
  file?: string;
  /** Play forwards, then backwards, and so on (prices stay continuous), until stopped. */
  loop?: boolean;
  /** 2 = twice as fast as recorded. */
  speed?: number;
  /** Ticks of the same moment (within this window) go in as one batch. */
  batchWindowMs?: number;
}

/**
 * Replays recorded ticks into the contract products with the same symbols as source `replay`
 * (decision 034): the demo's prices move, and tests and the bench drive the watcher with real
 * sequences. Pairs without contract settings are skipped.
 */
export class ContractsReplay {
  private stopped = false;
  private running: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** Ticks ingested so far. */
  ingested = 0;

  constructor(
    private readonly service: ContractsService,
    private readonly logger: FastifyBaseLogger,
    private readonly options: ReplayOptions = {},
  ) {}

  async start(): Promise<void> {
    const ticks = loadRecordedTicks(this.options.file);
    const ids = await this.service.watcher.contractProductIds();
    const playable = ticks.filter((tick) => ids.has(tick.symbol));
    if (playable.length === 0) {
      this.logger.warn('contracts replay: no recorded pair has contract settings');
      return;
    }
    this.stopped = false;
    this.running = this.play(playable, ids).catch((error: unknown) =>
      this.logger.error({ err: error }, 'contracts replay failed'),
    );
  }

  /** Plays the whole recording once (or forever with `loop`); resolves when done or stopped. */
  async done(): Promise<void> {
    await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.wake?.();
    await this.running;
  }

  private sleep(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.wake = resolve;
      this.timer = setTimeout(resolve, ms);
    });
  }

  private async play(ticks: RecordedTick[], ids: Map<string, string>): Promise<void> {
    const speed = this.options.speed ?? 1;
    const windowMs = this.options.batchWindowMs ?? 50;
    const end = ticks[ticks.length - 1]!.offsetMs;
    let forwards = true;
    do {
      const order = forwards ? ticks : [...ticks].reverse();
      const startedAt = Date.now();
      let index = 0;
      while (index < order.length && !this.stopped) {
        const offsetOf = (tick: RecordedTick) => (forwards ? tick.offsetMs : end - tick.offsetMs);
        const first = offsetOf(order[index]!);
        await this.sleep(startedAt + first / speed - Date.now());
        if (this.stopped) break;
        const batch: RecordedTick[] = [];
        while (index < order.length && offsetOf(order[index]!) < first + windowMs) batch.push(order[index++]!);
        await this.service.watcher.ingestTicks(
          batch.map((tick) => ({ productId: ids.get(tick.symbol)!, bid: tick.bid, ask: tick.ask })),
          'replay',
        );
        this.ingested += batch.length;
      }
      forwards = !forwards;
    } while (this.options.loop && !this.stopped);
  }
}
