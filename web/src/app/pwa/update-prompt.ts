import Dialog from 'antd-mobile/es/components/dialog';
import { t } from '../../lib/i18n/i18n';

/** Spec §8 "New version detected…": resolves true when the member chooses to update now. */
export function askToUpdate(): Promise<boolean> {
  return Dialog.confirm({
    content: t('webUpdate.message'),
    confirmText: t('webUpdate.updateNow'),
    cancelText: t('webUpdate.later'),
  });
}
