import pino, { type Logger } from 'pino';

/** The process logger; Fastify uses it too, so request logs and service logs share one stream. */
export function createLogger(level: string): Logger {
  return pino({ level, redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' } });
}
