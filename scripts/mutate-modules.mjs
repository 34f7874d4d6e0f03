// The modules `npm run mutate` covers (issue 31): which source files each one mutates and which
// test files may kill its mutants. Routes are left out: they only parse and wire (their schemas are
// the contract's, tested there), and every money rule lives in a service or a repository.

/** @typedef {{ mutate: string[]; testFiles: string[] }} MutationModule */

const source = (folder) => [`server/src/modules/${folder}/**/*.ts`, `!server/src/modules/${folder}/**/*.routes.ts`];

/** @type {Record<string, MutationModule>} */
export const mutationModules = {
  transfers: {
    mutate: source('transfers'),
    testFiles: ['server/test/transfers.test.ts', 'server/test/transfers-mutants.test.ts'],
  },
  exchange: {
    mutate: source('exchange'),
    testFiles: ['server/test/exchange.test.ts', 'server/test/exchange-mutants.test.ts'],
  },
  ledger: {
    mutate: source('ledger'),
    testFiles: [
      'server/test/ledger.test.ts',
      'server/test/ledger-*.test.ts',
      'server/test/adjustments.test.ts',
      'server/test/balance-tracker.test.ts',
    ],
  },
  hosting: {
    mutate: source('hosting'),
    testFiles: ['server/test/hosting*.test.ts', 'server/test/settlement-*.test.ts'],
  },
  machines: { mutate: source('machines'), testFiles: ['server/test/machines*.test.ts'] },
  earnings: {
    mutate: [...source('earnings'), ...source('airdrops')],
    testFiles: ['server/test/earnings*.test.ts', 'server/test/airdrops*.test.ts'],
  },
  'team-earnings': { mutate: source('team-earnings'), testFiles: ['server/test/team-earnings*.test.ts'] },
  withdrawals: {
    mutate: source('withdraw'),
    testFiles: ['server/test/withdraw*.test.ts'],
  },
  otc: { mutate: source('otc'), testFiles: ['server/test/otc*.test.ts'] },
  contracts: { mutate: source('contracts'), testFiles: ['server/test/contracts*.test.ts'] },
};
