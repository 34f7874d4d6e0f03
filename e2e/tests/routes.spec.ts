import { translate } from '@custos/contract';
import { ROUTES } from '../../web/src/app/routes';
import en from '../../web/src/app/i18n/locales/en.json' with { type: 'json' };
import { collectErrors, hashPath, prepareStorage } from '../support/app';
import { expect, test } from '../support/fixtures';

const titles = en.routes as Record<string, string>;

/** Later steps of a flow opened directly (without the earlier steps' data) go back to its first step. */
const FLOW_START: Record<string, string> = {
  '/pages/register/verify_code': '/pages/register/register',
  '/pages/register/register1': '/pages/register/register',
  '/pages/register/verify_code1': '/pages/login/login1',
  '/pages/forget_pwd/verify_code': '/pages/forget_pwd/forget_pwd',
  '/pages/forget_pwd/forget_pwd1': '/pages/forget_pwd/forget_pwd',
};

test.describe('every route of the route map renders', () => {
  for (const route of ROUTES) {
    test(`${route.path}`, async ({ page, members }) => {
      const errors = collectErrors(page);
      // A signed-in member opening "/" or log-in is sent home by the start-up rule; visit them as a visitor.
      const isEntry = route.path === '/' || route.path === '/pages/login/login';
      const credential = isEntry ? null : (await members.create('routes')).token;
      await prepareStorage(page, { credential, locale: 'en' });
      await page.goto(`/#${route.path}`);
      await expect(page.locator('.layout')).toBeVisible();
      const landedOn = FLOW_START[route.path] ?? route.path;
      await expect.poll(() => hashPath(page)).toBe(landedOn);
      const shown = ROUTES.find((candidate) => candidate.path === landedOn)!;
      const content = page.locator('.layout-content');
      await expect(content.locator('.page-waiting, .page-loading')).toHaveCount(0);
      await expect(content).not.toBeEmpty();
      expect((await content.innerText()).trim().length).toBeGreaterThan(0);
      if (shown.customHeader) {
        await expect(page.locator('.login-title')).toHaveText(titles[shown.id]!);
      } else {
        await expect(page.getByTestId('nav-header')).toContainText(titles[shown.id]!);
      }
      await expect(page).toHaveTitle(`${titles[shown.id]} · Custos`);
      expect(errors).toEqual([]);
    });
  }
});

test('the API docs page and JSON are served', async ({ request }) => {
  const json = await request.get('/api/docs/json');
  expect(json.ok()).toBe(true);
  const response = await request.get('/api/nothing', { headers: { lang: 'EN' } });
  expect(response.status()).toBe(404);
  expect(await response.json()).toEqual({
    code: 404,
    message: translate('en', 'route_not_found', { method: 'GET', path: '/api/nothing' }),
    data: null,
  });
});
