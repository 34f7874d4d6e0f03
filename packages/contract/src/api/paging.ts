import { z } from 'zod';

/*
 * The one shape of a paged list, asked (`page`, `pageSize`) and answered (`items`, `total`): a module
 * of its own, so a member screen's schemas do not bring the console's with them (decision 048).
 */

export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
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
