import { describe, expect, it } from 'vitest';
import { ASSETS, RECORD_TYPES } from '@custos/contract';
import en from '../../app/i18n/locales/en.json';

describe('balance log names', () => {
  // The other six languages are held to the English keys by the locales test.
  it('name every record type and every asset of the contract', () => {
    expect(Object.keys(en.recordTypes).sort()).toEqual([...RECORD_TYPES].sort());
    expect(Object.keys(en.assetNames).sort()).toEqual([...ASSETS].sort());
  });
});
