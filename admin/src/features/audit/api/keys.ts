export interface AuditFilter {
  action: string;
  targetId: string;
}

/** Every audit query starts with `auditKeys.all`; each filter and page is a key of its own. */
export const auditKeys = {
  all: ['audit'] as const,
  list: (filter: AuditFilter, page: number) => [...auditKeys.all, 'list', filter, page] as const,
};
