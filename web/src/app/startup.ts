/**
 * Start-up rule (spec §2): unless the app is launched on download, register, register verify code or
 * my, a visitor with no stored Authorization goes to log-in; a member with one who launches on the
 * entry route (log-in) goes to the home tab. Deep links of a signed-in member are kept.
 */
export const OPEN_TO_VISITORS = new Set([
  '/pages/download/download',
  '/pages/register/register',
  '/pages/register/verify_code',
  '/pages/my/my',
]);

export const LOGIN_PATH = '/pages/login/login';
export const HOME_PATH = '/pages/index/index';

/** Path of a hash location: "#/pages/x?id=1" → "/pages/x". */
export function pathOfHash(hash: string): string {
  const path = hash.replace(/^#/, '').split('?')[0] ?? '';
  return path === '' ? '/' : path;
}

/** Where the app should open instead of `path`, or null to stay. */
export function startupRedirect(path: string, hasCredential: boolean): string | null {
  if (OPEN_TO_VISITORS.has(path)) return null;
  const isEntry = path === '/' || path === LOGIN_PATH;
  if (!hasCredential) return isEntry ? null : LOGIN_PATH;
  return isEntry ? HOME_PATH : null;
}
