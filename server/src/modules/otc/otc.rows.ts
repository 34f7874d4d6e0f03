// The rows the OTC repository reads and writes (decision 031), shared by its services.
import type {
  OtcActor,
  OtcAppealReason,
  OtcAppealStatus,
  OtcCancelReason,
  OtcListingState,
  OtcOrderState,
  OtcPaymentType,
  OtcRole,
  OtcRuling,
  OtcSide,
} from '@custos/contract';

export interface ListingRow {
  id: string;
  listing_no: string;
  member_id: string;
  account_id: string;
  side: OtcSide;
  state: OtcListingState;
  price: string;
  quantity: string;
  available: string;
  completed: string;
  min_per_order: string;
  max_per_order: string;
  splittable: boolean;
  payment_method_ids: string[];
  payment_types: OtcPaymentType[];
  payment_window_minutes: number;
  terms: string;
  fee_pct: string;
  fee_remaining: string;
  escrow_seq: number;
  deposit: string;
  deposit_status: 'none' | 'held' | 'released' | 'forfeited';
  client_key: string;
  request_hash: string;
  created_at: Date | string;
  updated_at: Date | string;
  closed_at: Date | string | null;
  /** Joined: quantity in open orders and how many are open. */
  in_orders: string;
  open_orders: number;
}

export interface OrderRow {
  id: string;
  order_no: string;
  listing_id: string;
  listing_no: string;
  listing_side: OtcSide;
  listing_member_id: string;
  buyer_member_id: string;
  buyer_account_id: string;
  seller_member_id: string;
  seller_account_id: string;
  taker_member_id: string;
  taker_role: OtcRole;
  state: OtcOrderState;
  amount: string;
  price: string;
  fiat_amount: string;
  fee: string;
  escrow: string;
  payment_details: unknown;
  terms: string;
  conversation_id: string | null;
  pay_deadline: Date | string;
  paid_at: Date | string | null;
  appeal_allowed_at: Date | string | null;
  release_overdue_at: Date | string | null;
  completed_at: Date | string | null;
  cancelled_at: Date | string | null;
  cancel_reason: OtcCancelReason | null;
  client_key: string;
  request_hash: string;
  created_at: Date | string;
  updated_at: Date | string;
}

export interface StepRow {
  step: string;
  actor: OtcActor;
  order_no: string | null;
  note: string | null;
  created_at: Date | string;
}

export interface AppealRow {
  id: string;
  order_id: string;
  by_role: OtcRole;
  by_member_id: string;
  opening: boolean;
  reason: OtcAppealReason;
  description: string;
  image_ids: string[];
  status: OtcAppealStatus;
  ruling: OtcRuling | null;
  ruling_note: string | null;
  ruled_by_name: string | null;
  ruled_at: Date | string | null;
  created_at: Date | string;
}

export interface ReputationRow {
  member_id: string;
  nickname: string;
  completed_30d: number;
  failed_30d: number;
  avg_release_s: number | null;
  completed_total: number;
}

export interface PartyRow {
  member_id: string;
  account_id: string;
  email: string;
  nickname: string;
}

export interface PaymentMethodRow {
  id: string;
  type: OtcPaymentType;
  holder_name: string | null;
  bank_name: string | null;
  branch: string | null;
  card_number: string | null;
  account: string | null;
}

export interface SuspensionRow {
  member_id: string;
  email: string;
  nickname: string;
  until: Date | string;
  reason: string;
  order_no: string | null;
  created_at: Date | string;
}

export interface ListingInsert {
  id: string;
  listingNo: string;
  memberId: string;
  accountId: string;
  side: OtcSide;
  price: string;
  quantity: string;
  minPerOrder: string;
  maxPerOrder: string;
  splittable: boolean;
  paymentMethodIds: readonly string[];
  paymentTypes: readonly OtcPaymentType[];
  paymentWindowMinutes: number;
  terms: string;
  feePct: string;
  feeRemaining: string;
  deposit: string;
  depositStatus: 'none' | 'held';
  clientKey: string;
  requestHash: string;
  now: Date;
}

export interface OrderInsert {
  id: string;
  orderNo: string;
  listingId: string;
  listingSide: OtcSide;
  buyerMemberId: string;
  buyerAccountId: string;
  sellerMemberId: string;
  sellerAccountId: string;
  takerMemberId: string;
  takerRole: OtcRole;
  amount: string;
  price: string;
  fiatAmount: string;
  fee: string;
  escrow: string;
  paymentDetails: unknown;
  terms: string;
  payDeadline: Date;
  clientKey: string;
  requestHash: string;
  now: Date;
}

export interface OrderFilter {
  buyerMemberId?: string;
  sellerMemberId?: string;
  memberId?: string;
  state?: OtcOrderState;
  states?: readonly OtcOrderState[];
  query?: string;
  id?: string;
  /** The listing's side. */
  side?: OtcSide;
  /** Placed at or after this instant. */
  createdFrom?: Date;
  /** Placed before this instant. */
  createdBefore?: Date;
}
