/** Query keys of the member's customer-service chat (decision 023, 029). */
export const chatKeys = {
  all: ['chat'] as const,
  history: () => [...chatKeys.all, 'history'] as const,
  unread: () => [...chatKeys.all, 'unread'] as const,
};
