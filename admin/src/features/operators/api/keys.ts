/** The operator list; every change to an operator refreshes it. */
export const operatorKeys = {
  all: ['operators'] as const,
  list: ['operators', 'list'] as const,
};
