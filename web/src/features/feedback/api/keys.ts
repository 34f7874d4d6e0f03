/** Query keys of the member's feedback (decision 023). */
export const feedbackKeys = {
  all: ['feedback'] as const,
  list: () => [...feedbackKeys.all, 'list'] as const,
};
