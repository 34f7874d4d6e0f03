import type AntdToast from 'antd-mobile/es/components/toast';
import { TOAST_DURATION_MS } from '@custos/contract';

type Toast = typeof AntdToast;

/*
 * antd-mobile's toast (and the animation library under it) is fetched the first time a message is
 * shown, not before the first screen (decision 039). Messages keep their order: each waits on the
 * same fetch. A failed fetch (no connection) is tried again by the next message.
 */
let toast: Promise<Toast> | undefined;

function loadToast(): Promise<Toast> {
  toast ??= import('antd-mobile/es/components/toast').then(
    (module) => module.default,
    (error: unknown) => {
      toast = undefined;
      throw error;
    },
  );
  return toast;
}

export function showToast(message: string): void {
  void toastShown(message);
}

/**
 * Shows a message; resolves once it is on screen (or could not be: no connection to fetch the
 * toast), for what must follow the message by a set time (the client's 1.5 s redirects).
 */
export function toastShown(message: string): Promise<void> {
  if (!message) return Promise.resolve();
  return loadToast().then(
    (Toast) => {
      Toast.show({ content: message, duration: TOAST_DURATION_MS });
    },
    () => undefined,
  );
}
