// Every table, for drizzle (migrations, the query builder) and for the modules. The core tables
// (members, accounts, operators, sessions, settings) live in schema-core.ts; each domain's tables
// live in a file of their own that imports only the core (and the ledger), never this index.
export * from './schema-core.js';
export * from './schema-ledger.js';
export * from './schema-chain.js';
export * from './schema-withdraw.js';
export * from './schema-hosting.js';
export * from './schema-machines.js';
export * from './schema-earnings.js';
export * from './schema-team.js';
export * from './schema-support.js';
export * from './schema-content.js';
export * from './schema-airdrops.js';
export * from './schema-market.js';
export * from './schema-chat.js';
export * from './schema-help.js';
export * from './schema-otc.js';
export * from './schema-releases.js';
export * from './schema-contracts.js';
