/** The screens of OTC trading, by the spec's paths (product.md §2) and the post screen of decision 032. */
export const TRADE_PATH = '/pages/index/index1';
export const POST_LISTING_PATH = '/pages/otc/post';
export const MY_LISTINGS_PATH = '/pages/blance_record/blance_record9';
export const MY_ORDERS_PATH = '/pages/blance_record/blance_record10';
export const ORDER_DETAIL_PATH = '/pages/order_detail/order_detail';
/** The bank card form, offering WeChat Pay and Alipay as OTC payment details (product.md §5). */
export const ADD_PAYMENT_METHOD_PATH = '/pages/withdraw/withdraw4?for=otc';
export const IDENTITY_PATH = '/pages/setting/setting3';
export const TRADE_PASSWORD_SET_PATH = '/pages/update_pwd/update_pwd3';

export function orderDetailPath(id: string): string {
  return `${ORDER_DETAIL_PATH}?id=${encodeURIComponent(id)}`;
}

export function postListingPath(side: 'sell' | 'buy'): string {
  return `${POST_LISTING_PATH}?side=${side}`;
}
