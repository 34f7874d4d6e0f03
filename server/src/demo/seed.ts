import type { Services } from '../container.js';

/**
 * `npm start -- --demo`: fills the platform so a newcomer sees a populated app. Each domain adds its
 * own demo data here as it lands; it only adds what is missing, so repeated starts change nothing.
 */
export async function seedDemo(services: Services): Promise<void> {
  const site = await services.settings.get('site');
  if (!site.customerServiceUrl) {
    await services.settings.set(
      'site',
      {
        ...site,
        communityLinks: { international: 'https://t.me/custos_global', asiaPacific: 'https://t.me/custos_apac' },
        customerServiceUrl: 'https://t.me/custos_support',
      },
      null,
    );
  }
  const version = await services.settings.get('app_version');
  if (!version.release_notes) {
    await services.settings.set('app_version', { ...version, release_notes: 'Demo build: first public version.' }, null);
  }
}
