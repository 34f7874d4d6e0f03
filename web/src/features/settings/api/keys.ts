/** Query keys of the security settings (decision 023). */
export const settingsKeys = {
  all: ['settings'] as const,
  sessions: () => [...settingsKeys.all, 'sessions'] as const,
  avatars: () => [...settingsKeys.all, 'avatars'] as const,
};
