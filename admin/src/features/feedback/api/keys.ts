/** Every feedback query starts with `feedbackKeys.all`; a reply refreshes both status lists. */
export const feedbackKeys = {
  all: ['feedback'] as const,
  list: (status: string, page: number) => [...feedbackKeys.all, 'list', status, page] as const,
};
