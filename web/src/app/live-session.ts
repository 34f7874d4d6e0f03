/**
 * What a logged-in member's app adds for live events (decision 022): the channel, the toasts and the
 * query invalidation. Loaded only once a member is logged in (`App`), so the log-in page does not
 * carry the event schemas and the channel's code (decision 039).
 */
export { onLiveEvent, startLiveChannel } from '../lib/live/live-channel';
export { liveToastText } from '../lib/live/live-toasts';
export { invalidateForLiveEvent } from './live-invalidation';
