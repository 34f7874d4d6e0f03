import type { Services } from '../container.js';
import type { JobHandler } from './runner.js';

/** Ended sessions and spent rate-limit windows are kept a week for investigations, then removed. */
const RETENTION_S = 7 * 24 * 3600;

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
      name: 'housekeeping.purge-rate-limits',
      schedule: '23 * * * *',
      async run() {
        await services.rateLimits.purgeStale(RETENTION_S);
      },
    },
  ];
}
