import type { OtcOrderState } from '@custos/contract';

/** The tag colour of each order state (antd-mobile Tag colours). */
export const ORDER_STATE_COLOURS: Record<OtcOrderState, string> = {
  pending_payment: 'warning',
  paid: 'primary',
  appeal: 'danger',
  completed: 'success',
  cancelled: 'default',
};
