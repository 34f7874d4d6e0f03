import { describe, expect, it } from 'vitest';
import type { AdminOperatorItem, Operator } from '@custos/contract';
import { operatorActions, roleLabel } from './actions';

const actor: Operator = { id: 'root', username: 'root', role: 'super_admin', mustChangePassword: false, totpBound: true };

function item(id: string, overrides: Partial<AdminOperatorItem> = {}): AdminOperatorItem {
  return {
    id,
    username: id,
    role: 'finance',
    totpBound: true,
    disabled: false,
    mustChangePassword: false,
    createdAt: '2026-01-01T00:00:00.000Z',
    lastLoginAt: null,
    ...overrides,
  };
}

describe('operator row actions', () => {
  it('offers nothing on one’s own account', () => {
    const self = item('root', { role: 'super_admin' });
    expect(Object.values(operatorActions(actor, self, [self, item('other', { role: 'super_admin' })]))).not.toContain(true);
  });

  it('offers role change, disable, password and authenticator reset on another operator', () => {
    const rows = [item('root', { role: 'super_admin' }), item('alice')];
    expect(operatorActions(actor, rows[1]!, rows)).toEqual({
      changeRole: true,
      disable: true,
      enable: false,
      resetPassword: true,
      resetAuthenticator: true,
    });
  });

  it('offers enable on a disabled operator, and no authenticator reset when none is bound', () => {
    const target = item('bob', { disabled: true, totpBound: false });
    expect(operatorActions(actor, target, [target])).toMatchObject({ disable: false, enable: true, resetAuthenticator: false });
  });

  it('keeps the last active super admin: no disable, no role change', () => {
    // The actor's own row is missing (say, a stale list): the target is then the only active super admin.
    const target = item('erin', { role: 'super_admin' });
    expect(operatorActions(actor, target, [target, item('frank', { role: 'super_admin', disabled: true })])).toMatchObject({
      changeRole: false,
      disable: false,
      resetPassword: true,
    });
    expect(operatorActions(actor, target, [target, item('root', { role: 'super_admin' })])).toMatchObject({
      changeRole: true,
      disable: true,
    });
  });

  it('labels roles for people', () => {
    expect(roleLabel('super_admin')).toBe('super admin');
  });
});
