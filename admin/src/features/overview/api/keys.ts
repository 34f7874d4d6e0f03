export const overviewKeys = {
  all: ['overview'] as const,
  health: ['overview', 'health'] as const,
  platform: ['overview', 'platform'] as const,
};
