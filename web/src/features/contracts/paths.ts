/** The contract screens, by the spec's paths (product.md §2). */
export const TRADE_PATH = '/pages/index/index1';
/** The Trade tab with the contracts segment chosen (decision 035). */
export const CONTRACTS_SEGMENT_PATH = '/pages/index/index1?segment=contracts';
export const CONTRACT_ORDERS_PATH = '/pages/blance_record/blance_record12';
