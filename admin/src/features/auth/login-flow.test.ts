import { describe, expect, it } from 'vitest';
import { BusinessCode, type Operator } from '@custos/contract';
import { INITIAL_LOGIN_STATE, afterLoginFailure, codeToSend, consoleStep } from './login-flow';

const operator: Operator = { id: '1', username: 'admin', role: 'super_admin', mustChangePassword: false, totpBound: true };

describe('console steps after log-in', () => {
  it('replaces the one-time password first, then binds an authenticator, then opens the console', () => {
    expect(consoleStep({ ...operator, mustChangePassword: true, totpBound: false })).toBe('change-password');
    expect(consoleStep({ ...operator, mustChangePassword: true, totpBound: true })).toBe('change-password');
    expect(consoleStep({ ...operator, totpBound: false })).toBe('bind-authenticator');
    expect(consoleStep(operator)).toBe('console');
  });
});

describe('log-in form', () => {
  it('shows the code field when the server asks for a code (4010), with its hint and no error', () => {
    const state = afterLoginFailure(
      { ...INITIAL_LOGIN_STATE, error: 'Wrong username or password' },
      { code: BusinessCode.AUTHENTICATOR_CODE_REQUIRED, message: 'Enter the 6-digit code from your authenticator app' },
    );
    expect(state).toEqual({ needCode: true, error: null, notice: 'Enter the 6-digit code from your authenticator app' });
  });

  it('keeps the code field after a wrong code and shows the error', () => {
    const asked = { needCode: true, error: null, notice: 'Enter the code' };
    expect(afterLoginFailure(asked, { code: 401, message: 'Wrong username, password or authenticator code' })).toEqual({
      needCode: true,
      error: 'Wrong username, password or authenticator code',
      notice: null,
    });
    expect(afterLoginFailure(INITIAL_LOGIN_STATE, { code: null, message: 'Network error' })).toMatchObject({ needCode: false });
  });

  it('sends a code only once asked for, without the spaces apps show', () => {
    expect(codeToSend(INITIAL_LOGIN_STATE, '123456')).toBeUndefined();
    expect(codeToSend({ ...INITIAL_LOGIN_STATE, needCode: true }, '123 456')).toBe('123456');
    expect(codeToSend({ ...INITIAL_LOGIN_STATE, needCode: true }, undefined)).toBe('');
  });
});
