import type { Page } from '@playwright/test';
import type { Locale } from '@custos/contract';

/** Sets what the app keeps in local storage before any of its scripts run. */
export async function prepareStorage(page: Page, options: { credential?: string | null; locale?: Locale } = {}): Promise<void> {
  const { credential = null, locale } = options;
  await page.addInitScript(
    ([token, language]) => {
      if (sessionStorage.getItem('e2e-prepared')) return;
      sessionStorage.setItem('e2e-prepared', '1');
      localStorage.clear();
      if (token) localStorage.setItem('Authorization', token);
      if (language) localStorage.setItem('custos.locale', language);
    },
    [credential, locale ?? null] as const,
  );
}

/** Collects console errors and uncaught exceptions of a page. */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  return errors;
}

export function hashPath(page: Page): string {
  // No hash at all is the entry route "/".
  return new URL(page.url()).hash.replace(/^#/, '').split('?')[0] || '/';
}
