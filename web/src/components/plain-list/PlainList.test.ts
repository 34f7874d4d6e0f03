import { createElement, type ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from '../../lib/router/router';
import { describe, expect, it } from 'vitest';
import { UnreadBadge } from '../content/UnreadBadge';
import { PlainList, PlainListItem } from './PlainList';

const render = (element: ReactElement) => renderToStaticMarkup(createElement(MemoryRouter, null, element));

describe('plain list', () => {
  it('a row that opens something is a real link; others are not interactive', () => {
    const html = render(
      createElement(PlainList, {
        header: 'News',
        'data-testid': 'news',
        children: [
          createElement(PlainListItem, { key: 'a', to: '/pages/index/index5?id=1', 'data-testid': 'item', children: 'Opened' }),
          createElement(PlainListItem, { key: 'b', description: 'later', extra: '1.5', children: 'Plain' }),
        ],
      }),
    );
    expect(html).toContain('<div class="plain-list" data-testid="news"><div class="plain-list-header">News</div>');
    expect(html).toMatch(
      /<a class="plain-list-item plain-list-item-link" data-testid="item" href="\/pages\/index\/index5\?id=1"/,
    );
    expect(html).toContain(
      '<div class="plain-list-item"><div class="plain-list-item-main">Plain<div class="plain-list-item-description">later</div></div><div class="plain-list-item-extra">1.5</div></div>',
    );
  });
});

describe('unread badge', () => {
  it('shows the count on the badge, at most 999+, with its test id', () => {
    expect(render(createElement(UnreadBadge, { count: 3, testId: 'badge', children: 'News' }))).toBe(
      '<span class="unread-badge-wrapper">News<span class="unread-badge" data-testid="badge" data-count="3">3</span></span>',
    );
    expect(render(createElement(UnreadBadge, { count: 1200, children: 'News' }))).toContain('>999+</span>');
  });

  it('is absent at zero, test id included', () => {
    expect(render(createElement(UnreadBadge, { count: 0, testId: 'badge', children: 'News' }))).toBe(
      '<span class="unread-badge-wrapper">News</span>',
    );
  });
});
