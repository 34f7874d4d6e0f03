// The parser lives in the contract so the member app and the console read their channels alike.
export { SseParser, type SseFrame } from '@custos/contract';
