import { createHash } from 'node:crypto';
import { createPublicKey, sign, verify } from 'node:crypto';
import { hotBundleSignedMessage, RELEASE_TEST_PUBLIC_KEY, type AdminReleases, type AppVersion } from '@custos/contract';
import en from '../../web/src/app/i18n/locales/en.json' with { type: 'json' };
import { storedZip } from '../../server/src/lib/stored-zip';
import { RELEASE_TEST_SIGNING_KEY } from '../../server/test/support/release-test-key';
import { collectErrors, prepareStorage } from '../support/app';
import { openConsolePage } from '../support/console';
import { expect, test } from '../support/fixtures';
import { withPlatformLock } from '../support/locks';

/*
 * The in-app update end to end (issue 16, decision 037): an operator uploads a hot bundle in the
 * console and publishes it; app_version offers it; the member app prompts, downloads and checks
 * it, and after a restart runs it and reports it healthy. In the browser the native layer is the
 * documented test double (localStorage `custos.updater` = `browser-double`), which speaks the
 * live-update plugin's interface over fetch. The bundle is signed with the committed test key, and
 * the app (built without a real key) checks it before downloading (decision 057).
 */

const DOUBLE_STATE_KEY = 'custos.updater.double';

interface DoubleState {
  current: { id: string; version: string; checksum: string; status: string } | null;
  next: string | null;
  bundles: { id: string; version: string; checksum: string; status: string }[];
}

test('a hot bundle released in the console is offered, downloaded, checked and applied on restart', async ({
  page,
  request,
  members,
  operators,
  openConsole,
}) => {
  // The same test on the other worker may hold the releases lock for a whole run first.
  test.setTimeout(120_000);
  // Releases are the platform's: the same test on the other worker waits, so each sees its own as the newest.
  await withPlatformLock('app-releases', async () => {
    const errors = collectErrors(page);
    const operator = await operators.create('super_admin');
    const member = await members.create('app-update');

    const listed = (await (
      await request.get('/api/admin/releases', { headers: { authorization: `Bearer ${operator.token}` } })
    ).json()) as { data: AdminReleases };
    const versionCode = listed.data.highestVersionCode + 1;
    const versionName = `2.${Math.floor(versionCode / 1000)}.${versionCode % 1000}`;
    const bundle = storedZip([
      { name: 'index.html', content: `<!doctype html><title>Custos ${versionName}</title>` },
      { name: 'assets/release.txt', content: `release ${versionCode}` },
    ]);
    const sha256 = createHash('sha256').update(bundle).digest('hex');

    // ── Console: upload the bundle as a draft, then publish it to every member. ──
    const console = await openConsole(operator);
    await openConsolePage(console, 'App releases');
    await console
      .getByTestId('release-file')
      .setInputFiles({ name: `custos-${versionName}.zip`, mimeType: 'application/zip', buffer: bundle });
    await console.getByRole('spinbutton', { name: /Version code/ }).fill(String(versionCode));
    await console.getByTestId('release-name').fill(versionName);
    await console.getByTestId('release-notes').fill('Faster start-up.');
    const uploaded = console.waitForResponse((response) => new URL(response.url()).pathname === '/api/admin/releases/packages');
    await console.getByTestId('release-upload').click();
    expect(await (await uploaded).json()).toMatchObject({ code: 200, data: { kind: 'hot', sha256, sizeBytes: bundle.length } });
    const row = console.getByTestId(`release-row-${versionCode}`);
    await expect(row.getByTestId('release-status')).toHaveText('Draft');
    await row.getByRole('spinbutton').fill('100');
    await row.getByTestId('release-publish').click();
    await expect(row.getByTestId('release-status')).toHaveText('Published · 100%');

    // ── app_version: the member is offered the bundle with its checksum. ──
    const config = (await (
      await request.get('/api/common/app_version', { headers: { authorization: member.token } })
    ).json()) as {
      data: AppVersion;
    };
    expect(config.data).toMatchObject({
      hot_version_code: versionCode,
      hot_package_sha256: sha256,
      hot_package_size: bundle.length,
    });
    // Signed by the server's release key (the committed test key here, decision 057), which is what
    // the app checks before it downloads anything.
    const testKey = createPublicKey({
      key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(RELEASE_TEST_PUBLIC_KEY, 'base64').toString('base64url') },
      format: 'jwk',
    });
    expect(
      verify(
        null,
        Buffer.from(hotBundleSignedMessage(versionCode, sha256)),
        testKey,
        Buffer.from(config.data.hot_package_signature ?? '', 'base64'),
      ),
    ).toBe(true);

    await prepareStorage(page, { credential: member.token, locale: 'en' });
    await page.addInitScript(() => localStorage.setItem('custos.updater', 'browser-double'));

    // ── Offered with the release key's signature of another version: refused, nothing downloaded. ──
    const forged = sign(null, Buffer.from(hotBundleSignedMessage(versionCode + 1, sha256)), RELEASE_TEST_SIGNING_KEY).toString(
      'base64',
    );
    await page.route('**/api/common/app_version', async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { data: AppVersion };
      await route.fulfill({ response, json: { ...body, data: { ...body.data, hot_package_signature: forged } } });
    });
    const bundleRequests: string[] = [];
    page.on('request', (sent) => {
      if (new URL(sent.url()).pathname === config.data.hot_package_url) bundleRequests.push(sent.url());
    });
    await page.goto('/#/pages/index/index');
    await page.getByRole('button', { name: en.appUpdate.updateNow }).click();
    await expect(page.getByText(en.appUpdate.downloadFailed)).toBeVisible();
    const refused = await page.evaluate(
      (key) => JSON.parse(localStorage.getItem(key) ?? 'null') as DoubleState | null,
      DOUBLE_STATE_KEY,
    );
    expect(refused?.bundles ?? []).toEqual([]);
    expect(refused?.next ?? null).toBeNull();
    expect(bundleRequests).toEqual([]);
    await page.unroute('**/api/common/app_version');

    // ── The member app with the native layer's browser double: prompt, download, check, ready for the next start. ──
    const downloaded = page.waitForResponse((response) => new URL(response.url()).pathname === config.data.hot_package_url);
    await page.reload();
    await expect(page.getByText(en.appUpdate.newVersion)).toBeVisible();
    await page.getByRole('button', { name: en.appUpdate.updateNow }).click();
    const download = await downloaded;
    expect(download.status()).toBe(200);
    expect(download.headers()['etag']).toBe(`"${sha256}"`);
    await expect(page.getByText(en.appUpdate.appliedOnRestart)).toBeVisible();
    const ready = await page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? 'null') as DoubleState, DOUBLE_STATE_KEY);
    // The one bundle downloaded, checked against the release's SHA-256, is the one set for the next start.
    const downloadedBundles = ready.bundles.filter((entry) => entry.version === String(versionCode));
    expect(downloadedBundles).toEqual([
      {
        id: expect.any(String),
        version: String(versionCode),
        checksum: sha256,
        downloaded: expect.any(String),
        status: 'pending',
      },
    ]);
    expect(ready.next).toBe(downloadedBundles[0]!.id);
    expect(ready.current).toBeNull();

    // ── Restart: the new bundle runs, reports healthy, and the app is up to date. ──
    await page.goto('/#/pages/setting/setting5');
    await page.reload();
    await expect(page.getByTestId('hot-version')).toHaveText(en.appUpdate.hotVersion.replace('{{version}}', String(versionCode)));
    await expect
      .poll(
        async () =>
          (await page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? 'null') as DoubleState, DOUBLE_STATE_KEY))
            .current,
      )
      .toMatchObject({ version: String(versionCode), checksum: sha256, status: 'success' });
    await expect(page.getByText('1.0.19 (10019)')).toBeVisible();
    await page.getByText(en.about.checkUpdate).click();
    await expect(page.getByText(en.about.upToDate)).toBeVisible();
    await expect(page.getByText(en.appUpdate.newVersion)).toHaveCount(0);
    expect(errors).toEqual([]);
  });
});
