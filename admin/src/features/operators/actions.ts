import type { AdminOperatorItem, Operator } from '@custos/contract';

export interface OperatorActions {
  changeRole: boolean;
  disable: boolean;
  enable: boolean;
  resetPassword: boolean;
  resetAuthenticator: boolean;
}

const NONE: OperatorActions = {
  changeRole: false,
  disable: false,
  enable: false,
  resetPassword: false,
  resetAuthenticator: false,
};

/**
 * Which actions the accounts page offers on a row, mirroring the server's rules: nothing on one's
 * own account, and the last active super admin can be neither disabled nor given another role.
 */
export function operatorActions(actor: Operator, target: AdminOperatorItem, all: readonly AdminOperatorItem[]): OperatorActions {
  if (target.id === actor.id) return NONE;
  const activeSuperAdmin = (item: AdminOperatorItem) => item.role === 'super_admin' && !item.disabled;
  const lastSuperAdmin = activeSuperAdmin(target) && all.filter(activeSuperAdmin).length <= 1;
  return {
    changeRole: !lastSuperAdmin,
    disable: !target.disabled && !lastSuperAdmin,
    enable: target.disabled,
    resetPassword: true,
    resetAuthenticator: target.totpBound,
  };
}

export function roleLabel(role: string): string {
  return role.replace('_', ' ');
}
