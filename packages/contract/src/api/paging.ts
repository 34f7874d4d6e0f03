import { z } from 'zod';
import { ValidationReason } from '../validators.js';

/*
 * The one shape of a paged list, asked (`page`, `pageSize`) and answered (`items`, `total`): a module
 * of its own, so a member screen's schemas do not bring the console's with them (decision 048).
 */

/**
 * The deepest page any list is read at: a million pages of the largest size is 10⁸ rows, past any
 * list the platform keeps, and its offset stays an exact integer (an unbounded page made
 * `(page - 1) × pageSize` unsafe, issue 31). A page past it is refused as page 0 is.
 */
export const PAGE_MAX = 1_000_000;

export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).max(PAGE_MAX, { error: ValidationReason.invalid }).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});

export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    total: z.number().int().nonnegative(),
    page: z.number().int(),
    pageSize: z.number().int(),
  });
}
