/** Every airdrop query starts with `airdropKeys.all`; each page is a key of its own. */
export const airdropKeys = {
  all: ['airdrops'] as const,
  list: (page: number) => [...airdropKeys.all, 'list', page] as const,
};
