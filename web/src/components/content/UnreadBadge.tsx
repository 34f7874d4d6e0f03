import { Badge } from 'antd-mobile';
import { badgeText } from '@custos/contract';
import type { ReactNode } from 'react';

/** A count badge that shows at most "999+" (spec §9), and nothing at zero. */
export function UnreadBadge({ count, children, testId }: { count: number; children: ReactNode; testId?: string }) {
  return (
    <Badge content={count > 0 ? badgeText(count) : null} data-testid={testId} data-count={count}>
      {children}
    </Badge>
  );
}
