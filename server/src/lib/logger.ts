import pino, { type Logger } from 'pino';
import { prettyDestination } from './log-format.js';

/**
 * The process logger; Fastify uses it too, so request logs and service logs share one stream. JSON
 * lines, or with `pretty` (stdout is a terminal) lines a person reads.
 */
export function createLogger(level: string, options: { pretty?: boolean } = {}): Logger {
  const settings = { level, redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' } };
  return options.pretty ? pino(settings, prettyDestination(process.stdout, true)) : pino(settings);
}
