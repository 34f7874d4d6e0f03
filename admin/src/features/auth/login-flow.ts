import { BusinessCode, type Operator } from '@custos/contract';

/** What the console shows a signed-in operator: first a new password, then an authenticator, then the console. */
export type ConsoleStep = 'change-password' | 'bind-authenticator' | 'console';

export function consoleStep(operator: Operator): ConsoleStep {
  if (operator.mustChangePassword) return 'change-password';
  if (!operator.totpBound) return 'bind-authenticator';
  return 'console';
}

export interface LoginFormState {
  /** The server asked for an authenticator code (4010): the form shows the code field from now on. */
  needCode: boolean;
  error: string | null;
  notice: string | null;
}

export const INITIAL_LOGIN_STATE: LoginFormState = { needCode: false, error: null, notice: null };

/** The form after a refused log-in: 4010 reveals the code field with the server's hint; anything else is an error. */
export function afterLoginFailure(state: LoginFormState, failure: { code: number | null; message: string }): LoginFormState {
  if (failure.code === BusinessCode.AUTHENTICATOR_CODE_REQUIRED) return { needCode: true, error: null, notice: failure.message };
  return { ...state, error: failure.message, notice: null };
}

/** The code to send: only once asked for, without spaces (apps show "123 456"). */
export function codeToSend(state: LoginFormState, typed: string | undefined): string | undefined {
  if (!state.needCode) return undefined;
  return (typed ?? '').replace(/\s+/g, '');
}
