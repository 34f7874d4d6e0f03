import { describe, expect, it } from 'vitest';
import { EMPTY_AIRDROP_FORM, mayCancel, parseMemberList, toAirdropRequest } from './airdrops';

describe('airdrop form', () => {
  it('reads a member list typed one a line or separated by commas', () => {
    expect(parseMemberList(' a@example.com\nb@example.com, c@example.com;;\n\n')).toEqual([
      'a@example.com',
      'b@example.com',
      'c@example.com',
    ]);
  });

  it('sends a level or a list, and no time for "now"', () => {
    expect(toAirdropRequest({ ...EMPTY_AIRDROP_FORM, name: ' Gift ', amount: '12.5', minLevel: 2 })).toEqual({
      name: 'Gift',
      amount: '12.5',
      selection: 'level',
      minLevel: 2,
      arriveAt: null,
    });
    expect(
      toAirdropRequest({
        ...EMPTY_AIRDROP_FORM,
        name: 'List',
        amount: '1',
        selection: 'list',
        members: 'x@example.com\ny@example.com',
        when: 'at',
        arriveAt: '2026-11-21T10:00:00Z',
      }),
    ).toEqual({
      name: 'List',
      amount: '1',
      selection: 'list',
      members: ['x@example.com', 'y@example.com'],
      arriveAt: '2026-11-21T10:00:00.000Z',
    });
  });

  it('offers a cancel only while scheduled and before its time', () => {
    const at = '2026-11-21T10:00:00.000Z';
    expect(mayCancel({ status: 'scheduled', arriveAt: at }, Date.parse(at) - 1)).toBe(true);
    expect(mayCancel({ status: 'scheduled', arriveAt: at }, Date.parse(at))).toBe(false);
    expect(mayCancel({ status: 'arrived', arriveAt: at }, Date.parse(at) - 1)).toBe(false);
  });
});
