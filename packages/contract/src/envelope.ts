import { z } from 'zod';
import { ALL_BUSINESS_CODES, BusinessCode } from './codes.js';

/** Every response body: `{ code, message, data }`. */
export interface Envelope<T> {
  code: BusinessCode;
  message: string;
  data: T;
}

const codeSchema = z
  .number()
  .int()
  .refine((value): value is BusinessCode => (ALL_BUSINESS_CODES as readonly number[]).includes(value));

/** Schema of a successful envelope carrying `data`. */
export function envelopeOf<T extends z.ZodType>(data: T) {
  return z.object({ code: z.literal(BusinessCode.OK), message: z.string(), data });
}

/** Schema of any envelope, success or failure, whose data is not yet known. */
export const anyEnvelopeSchema = z.object({
  code: codeSchema,
  message: z.string(),
  data: z.unknown(),
});

export type AnyEnvelope = z.infer<typeof anyEnvelopeSchema>;

/** A failure envelope always carries `data: null`. */
export const errorEnvelopeSchema = z.object({
  code: codeSchema,
  message: z.string(),
  data: z.null(),
});
