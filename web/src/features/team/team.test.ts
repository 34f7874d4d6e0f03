import { describe, expect, it } from 'vitest';
import { missingParts, shareLinkFor } from './team';

describe('team helpers', () => {
  it('puts the register route behind the app’s own address', () => {
    expect(shareLinkFor('#/pages/register/register?code=AB12CD', { origin: 'https://app.example', pathname: '/' })).toBe(
      'https://app.example/#/pages/register/register?code=AB12CD',
    );
  });

  it('lists only the thresholds still missing', () => {
    const next = {
      level: 2,
      name: 'V2',
      requires: { ownCustody: '1000.0000', validDirect: 3, teamPerformance: '50000.0000', legs: 2, legsLevel: 1 },
      missing: { ownCustody: '0.0000', validDirect: 2, teamPerformance: '18400.0000', legs: 1, legsLevel: 1 },
    };
    expect(missingParts(next)).toEqual([
      { key: 'team.missingDirect', values: { count: 2 } },
      { key: 'team.missingPerformance', values: { amount: '18,400.0000' } },
      { key: 'team.missingLegs', values: { count: 1, level: 'V1' } },
    ]);
  });
});
