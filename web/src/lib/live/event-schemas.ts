/*
 * The schemas of what the live channel carries. They come with the contract's support, OTC and
 * contracts modules, whose every schema is built when the module is evaluated (about a quarter of
 * a second of a phone's main thread), so the channel loads this module when its first frame needs
 * reading, not when it opens (decision 044).
 */
export { memberChannelReady, memberEvent } from '@custos/contract';
