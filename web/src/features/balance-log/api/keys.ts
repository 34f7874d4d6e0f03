/** Query keys of the member's balance records (decision 023). */
export const balanceLogKeys = {
  all: ['balance-log'] as const,
  fuelTicket: (asset: 'FUEL' | 'TICKET' | undefined) => [...balanceLogKeys.all, 'fuel-ticket', asset ?? 'all'] as const,
};
