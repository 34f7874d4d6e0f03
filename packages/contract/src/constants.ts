/** Business constants and limits from spec §9 and product.md; one place for server and apps. */

/** Request, upload, download and socket time-out. */
export const REQUEST_TIMEOUT_MS = 60_000;
/** Time-out for loading a code chunk. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
/** A lazily loaded page shows its loading state only after this delay. */
export const PAGE_LOADING_DELAY_MS = 200;
/** A lazily loaded page that has not arrived by then shows the time-out text with a retry. */
export const PAGE_LOAD_TIMEOUT_MS = 60_000;
/** Delay between showing the message of codes 300/4900/4901 and opening their screen. */
export const ERROR_REDIRECT_DELAY_MS = 1_500;
/** Toasts and notifications stay this long. */
export const TOAST_DURATION_MS = 3_000;
/** Debounce and throttle of repeated taps and inputs. */
export const DEBOUNCE_MS = 500;
/** Second back press within this window quits the app (Android). */
export const BACK_EXIT_WINDOW_MS = 2_000;

/** Countdown before a verification code can be sent again. */
export const CODE_RESEND_COUNTDOWN_S = 60;
export const VERIFICATION_CODE_LENGTH = 6;
export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 64;
/** Maximum length of free-text areas (feedback, reasons). */
export const TEXT_AREA_MAX_LENGTH = 140;
/** Badges show at most this number ("999+" beyond). */
export const BADGE_MAX = 999;
/** Countdowns are shown as HH:mm:ss. */
export const COUNTDOWN_FORMAT = 'HH:mm:ss';

/** App version shipped with the spec. */
export const APP_VERSION = '1.0.19';
export const APP_VERSION_CODE = 10019;

/** Custody balance (USD) from which a member counts as valid for team counts. */
export const VALID_CUSTODY_THRESHOLD_USD = '500.0000';
/** Deposits below this are recorded but not credited (and not refunded). */
export const MIN_DEPOSIT_USDT = '1.0000';
export const DEPOSIT_CONFIRMATIONS = 3;

/** Money is exact to ten-thousandths. */
export const MONEY_SCALE = 4;

/** Withdrawal window: working days 09:00–21:00 in the platform time zone. */
export const WITHDRAW_WINDOW = { firstHour: 9, lastHour: 21, weekdays: [1, 2, 3, 4, 5] } as const;
export const DEFAULT_PLATFORM_TIME_ZONE = 'Asia/Shanghai';

/** Uploaded images (identity documents, avatars, chat and OTC photos): at most 2 MiB each, JPEG, PNG or WebP (checked by their bytes on the server). */
export const UPLOAD_MAX_BYTES = 2 * 1024 * 1024;
/**
 * The longest inline image (base64) a schema takes: twice what `UPLOAD_MAX_BYTES` needs, so the
 * exact size is checked on the decoded bytes with a clear message rather than by the length.
 */
export const UPLOAD_BASE64_MAX_LENGTH = Math.ceil((UPLOAD_MAX_BYTES * 4) / 3) * 2;
