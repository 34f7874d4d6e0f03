import { credential } from '../../../lib/auth/credential';
import { relaunch } from '../../../lib/navigation';

export const HOME_ROUTE = '/pages/index/index';
export const LOGIN_ROUTE = '/pages/login/login';

/** Keeps the new session token and opens the home tab as a fresh start. */
export function startSession(token: string): void {
  credential.set(token);
  relaunch(HOME_ROUTE);
}
