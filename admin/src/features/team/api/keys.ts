/** Every team query starts with `teamKeys.all` (decision 030). */
export const teamKeys = {
  all: ['team'] as const,
  /** Every level table with the day it applies from, newest first. */
  levels: ['team', 'levels'] as const,
};
