import { badgeText } from '@custos/contract';
import type { ReactNode } from 'react';

/**
 * A count badge that shows at most "999+" (spec §9), and nothing at zero. Plain markup and CSS
 * (antd-mobile's badge tied its popup code to Home's first load, decision 042); the test id and
 * count are on the badge itself, which is absent at zero.
 */
export function UnreadBadge({ count, children, testId }: { count: number; children: ReactNode; testId?: string }) {
  return (
    <span className="unread-badge-wrapper">
      {children}
      {count > 0 && (
        <span className="unread-badge" data-testid={testId} data-count={count}>
          {badgeText(count)}
        </span>
      )}
    </span>
  );
}
