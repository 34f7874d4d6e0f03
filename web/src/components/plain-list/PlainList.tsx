import type { ReactNode } from 'react';
import { RightOutline } from 'antd-mobile-icons';
import { Link } from '../../lib/router/router';

type DataAttributes = { [key: `data-${string}`]: string | undefined };

/**
 * A list in antd-mobile's list look (header, white body, hairlines between rows) in plain markup
 * and CSS, for Home's first screen (decision 042). A row that opens something is a real link.
 */
export function PlainList({ header, children, ...data }: { header?: ReactNode; children: ReactNode } & DataAttributes) {
  return (
    <div className="plain-list" {...data}>
      {header !== undefined && <div className="plain-list-header">{header}</div>}
      <div className="plain-list-body">{children}</div>
    </div>
  );
}

export function PlainListItem({
  to,
  description,
  extra,
  children,
  ...data
}: { to?: string; description?: ReactNode; extra?: ReactNode; children: ReactNode } & DataAttributes) {
  const content = (
    <>
      <div className="plain-list-item-main">
        {children}
        {description !== undefined && <div className="plain-list-item-description">{description}</div>}
      </div>
      {extra !== undefined && <div className="plain-list-item-extra">{extra}</div>}
      {to !== undefined && (
        <span className="plain-list-item-arrow" aria-hidden="true">
          <RightOutline />
        </span>
      )}
    </>
  );
  return to === undefined ? (
    <div className="plain-list-item" {...data}>
      {content}
    </div>
  ) : (
    <Link to={to} className="plain-list-item plain-list-item-link" {...data}>
      {content}
    </Link>
  );
}
