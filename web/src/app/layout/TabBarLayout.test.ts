import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from '../../lib/router/router';
import { describe, expect, it } from 'vitest';
import { TABS } from '../routes';
import { TabBarLayout } from './TabBarLayout';

// No texts loaded: every text shows as its key, which is what these checks look for.

/** The tab layout's markup at `path` (the web tests run without a DOM; the server renderer is enough). */
function render(path: string): string {
  return renderToStaticMarkup(
    createElement(
      QueryClientProvider,
      { client: new QueryClient() },
      createElement(MemoryRouter, { initialEntries: [path] }, createElement(TabBarLayout, { title: 'Home', children: 'page' })),
    ),
  );
}

function tabLinks(html: string) {
  const nav = /<nav class="tab-bar"[^>]*>(.*?)<\/nav>/s.exec(html)?.[1] ?? '';
  return [...nav.matchAll(/<a ([^>]*)>(.*?)<\/a>/gs)].map(([, attributes = '', inner = '']) => ({
    href: /href="([^"]*)"/.exec(attributes)?.[1] ?? '',
    current: /aria-current="([^"]*)"/.exec(attributes)?.[1] ?? null,
    testId: /data-testid="([^"]*)"/.exec(attributes)?.[1] ?? '',
    label: /<span class="tab-bar-item-title">([^<]*)<\/span>/.exec(inner)?.[1] ?? '',
  }));
}

describe('tab bar', () => {
  it('is five real links in the spec order, the open tab marked as the current page', () => {
    for (const tab of TABS) {
      const links = tabLinks(render(tab.path));
      expect(links.map((link) => link.href)).toEqual(TABS.map((each) => each.path));
      expect(links.map((link) => link.testId)).toEqual(TABS.map((each) => `tab-${each.index}`));
      expect(links.map((link) => link.label)).toEqual(TABS.map((each) => each.labelKey));
      expect(links.filter((link) => link.current === 'page').map((link) => link.href)).toEqual([tab.path]);
    }
  });

  it('marks no tab on a page that is not a tab', () => {
    expect(tabLinks(render('/pages/kefu/kefu')).some((link) => link.current !== null)).toBe(false);
  });

  it('the customer-service bubble is a button named in the member’s language', () => {
    expect(render(TABS[0].path)).toContain(
      '<button type="button" class="floating-bubble kefu-bubble" aria-label="common.customerService"',
    );
  });
});
