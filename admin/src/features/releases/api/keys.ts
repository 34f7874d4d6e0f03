/** Every release query starts with `releaseKeys.all`; each change refreshes the list. */
export const releaseKeys = {
  all: ['releases'] as const,
  list: () => [...releaseKeys.all, 'list'] as const,
};
