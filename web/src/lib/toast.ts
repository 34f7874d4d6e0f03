import { Toast } from 'antd-mobile';
import { TOAST_DURATION_MS } from '@custos/contract';

export function showToast(message: string): void {
  if (!message) return;
  Toast.show({ content: message, duration: TOAST_DURATION_MS });
}
