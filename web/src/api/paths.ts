/**
 * API paths a route names for its early reads (`launchCalls`, decision 047): constants without
 * the contract's schemas, so the small early file can send them.
 */
export const USER_ASSETS_PATH = '/api/user/assets';
