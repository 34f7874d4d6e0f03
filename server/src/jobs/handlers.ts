import type { Services } from '../container.js';
import type { JobHandler } from './runner.js';

/** Ended sessions and spent rate-limit windows are kept a week for investigations, then removed. */
const RETENTION_S = 7 * 24 * 3600;

export const AIRDROP_ARRIVAL_JOB = 'airdrops.arrive-due';
export const QUOTES_FEED_JOB = 'quotes.refresh';
export const OTC_TIMERS_JOB = 'otc.timers';
export const CONTRACTS_SWEEP_JOB = 'contracts.sweep';
export const CONTRACTS_SWAP_JOB = 'contracts.swap';

export function jobHandlers(services: Services): JobHandler[] {
  return [
    {
      name: 'housekeeping.purge-operator-sessions',
      schedule: '17 * * * *',
      async run() {
        await services.operators.purgeEndedSessions(RETENTION_S);
      },
    },
    {
      name: 'mail.retry-pending',
      schedule: '* * * * *',
      async run() {
        await services.mail.retryPending();
      },
    },
    {
      // Shortly after each platform midnight (the runner's cron is in the platform time zone); it
      // also catches up days missed while no instance ran. Safe to run twice or on two instances.
      name: 'settlement.daily',
      schedule: '5 0 * * *',
      retryLimit: 5,
      async run() {
        await services.settlement.settleDue();
      },
    },
    {
      name: 'housekeeping.purge-rate-limits',
      schedule: '23 * * * *',
      async run() {
        await services.rateLimits.purgeStale(RETENTION_S);
      },
    },
    {
      // A live channel away longer than the events are kept starts afresh; its screens refetch anyway.
      name: 'housekeeping.purge-member-events',
      schedule: '29 * * * *',
      async run() {
        await services.memberEvents.removeExpired();
        await services.operatorEvents.removeExpired();
      },
    },
    {
      // Airdrop campaigns whose time has come (a new campaign also sends a run for its own time).
      // Safe to repeat and to run on two instances: each recipient's entry has its own key.
      name: AIRDROP_ARRIVAL_JOB,
      schedule: '* * * * *',
      async run() {
        await services.airdrops.arriveDue();
      },
    },
    {
      // RAB/USDT follows the exchange price; the ticker feed (off by default) fetches once per its
      // interval across every instance (the slot is claimed in the database). A feed failure is
      // recorded for the console, never thrown: the last good prices stay and go stale by themselves.
      name: QUOTES_FEED_JOB,
      schedule: '* * * * *',
      retryLimit: 0,
      async run() {
        await services.quotes.runScheduled();
      },
    },
    {
      // OTC (decision 031): payment windows that passed cancel their orders, release windows that
      // passed open appeals. Safe to repeat and to run on several instances: each order changes in
      // its own transaction only if it is still in the state the timer expects (never under appeal).
      name: OTC_TIMERS_JOB,
      schedule: '* * * * *',
      async run() {
        await services.otc.timers.runTimers();
      },
    },
    {
      // Contracts (decision 034): a safety net behind the watcher each instance runs — ticks no
      // instance walked (one stopped mid-burst) are walked, and stop-out is checked. Safe anywhere:
      // a product is walked under its row lock, every close is a conditional update.
      name: CONTRACTS_SWEEP_JOB,
      schedule: '* * * * *',
      async run() {
        await services.contracts.watcher.watchAll();
        await services.contracts.stopOut.stopOutSweep();
        await services.contracts.swap.purgeTicks();
      },
    },
    {
      // One night's swap per open order after each 21:00 UTC rollover (once per order and day).
      name: CONTRACTS_SWAP_JOB,
      schedule: '7 * * * *',
      async run() {
        await services.contracts.swap.chargeSwap();
      },
    },
  ];
}
