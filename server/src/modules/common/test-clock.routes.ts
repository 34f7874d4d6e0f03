import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeOf } from '@custos/contract';
import { ok } from '../../http/envelope.js';
import type { AdjustableClock } from '../../lib/adjustable-clock.js';

/** Registered only when TEST_CLOCK_CONTROL is on: end-to-end tests move the server's clock forward. */
export const testClockRoutes: FastifyPluginAsyncZod<{ clock: AdjustableClock }> = async (app, { clock }) => {
  app.post(
    '/api/test/clock',
    {
      schema: {
        hide: true,
        body: z.object({
          advanceMs: z
            .number()
            .int()
            .min(0)
            .max(400 * 86_400_000),
        }),
        response: { 200: envelopeOf(z.object({ now: z.string() })) },
      },
    },
    async (request) => ok(request.locale, { now: clock.advance(request.body.advanceMs).toISOString() }),
  );
};
