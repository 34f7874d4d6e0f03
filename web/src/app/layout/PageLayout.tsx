import type { ReactNode } from 'react';
import { NavHeader } from './NavHeader';

export function PageLayout({ title, customHeader, children }: { title: string; customHeader?: boolean; children: ReactNode }) {
  return (
    <div className="layout layout-page">
      {!customHeader && <NavHeader title={title} showBack />}
      <main className="layout-content">{children}</main>
    </div>
  );
}
