/** Every exchange query starts with `exchangeKeys.all` (decision 030). */
export const exchangeKeys = {
  all: ['exchange'] as const,
  settings: ['exchange', 'settings'] as const,
};
