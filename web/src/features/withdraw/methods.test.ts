import { describe, expect, it } from 'vitest';
import {
  addBankMethodRequest,
  addCryptoMethodRequest,
  fieldLabel,
  translate,
  type WithdrawMethod,
  type WithdrawSettings,
} from '@custos/contract';
import en from '../../app/i18n/locales/en.json';
import { defaultMethodId, methodDisplay, methodTypeEnabled, requestProblems, shortAddress, walletTypesOffered } from './methods';
import type { Translate } from './window';

const t: Translate = (key, values = {}) => {
  const text = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], en);
  return String(text).replace(/\{\{(\w+)\}\}/g, (_whole, name: string) => String(values[name]));
};

const EVM = '0x52908400098527886E0F7030069857D2E4169EE7';
const TRON = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';

const method = (overrides: Partial<WithdrawMethod>): WithdrawMethod => ({
  id: '00000000-0000-4000-8000-000000000001',
  type: 'crypto',
  network: null,
  address: null,
  bankName: null,
  cardNumberMasked: null,
  holderName: null,
  branch: null,
  account: null,
  createdAt: '2026-11-21T00:00:00.000Z',
  ...overrides,
});

const open = (methods: Partial<WithdrawSettings['methods']> = {}) => ({
  methods: { crypto: true, bank: true, wechat: false, alipay: false, ...methods },
});

describe('method display', () => {
  it('shows the network and address of crypto methods, shortened in the picker', () => {
    const crypto = method({ network: 'BEP20', address: EVM });
    expect(methodDisplay(crypto, t)).toEqual({ title: 'USDT · BEP20', detail: EVM });
    expect(methodDisplay(crypto, t, true)).toEqual({ title: 'USDT · BEP20', detail: '0x529084…169EE7' });
    expect(shortAddress('T123')).toBe('T123');
  });

  it('shows the bank with the masked card, the holder and branch', () => {
    const bank = method({
      type: 'bank',
      bankName: 'Bank of China',
      cardNumberMasked: '**** 1234',
      holderName: 'Li Lei',
      branch: 'Pudong',
    });
    expect(methodDisplay(bank, t)).toEqual({ title: 'Bank of China **** 1234', detail: 'Li Lei · Pudong' });
  });

  it('names wallets and shows their holder and account', () => {
    expect(methodDisplay(method({ type: 'alipay', holderName: 'Li Lei', account: 'li@example.com' }), t)).toEqual({
      title: 'Alipay',
      detail: 'Li Lei · li@example.com',
    });
    expect(methodDisplay(method({ type: 'wechat', holderName: null, account: 'wx_li' }), t)).toEqual({
      title: 'WeChat Pay',
      detail: 'wx_li',
    });
  });

  it('picks the first method of a kind that is open, and offers only open wallets', () => {
    const bank = method({ id: 'b', type: 'bank' });
    const crypto = method({ id: 'c', network: 'TRC20', address: TRON });
    expect(defaultMethodId([bank, crypto], open())).toBe('b');
    expect(defaultMethodId([bank, crypto], open({ bank: false }))).toBe('c');
    expect(defaultMethodId([bank], open({ bank: false }))).toBeUndefined();
    expect(methodTypeEnabled('wechat', open())).toBe(false);
    expect(walletTypesOffered(open())).toEqual([]);
    expect(walletTypesOffered(open({ alipay: true }))).toEqual(['alipay']);
    expect(walletTypesOffered(null)).toEqual([]);
  });
});

describe('method forms, checked with the contract’s schemas', () => {
  it('accept an address of the network chosen, checksum included', () => {
    expect(requestProblems(addCryptoMethodRequest, { network: 'BEP20', address: EVM }, 'en')).toEqual({});
    expect(requestProblems(addCryptoMethodRequest, { network: 'BEP20', address: EVM.toLowerCase() }, 'en')).toEqual({});
    expect(requestProblems(addCryptoMethodRequest, { network: 'TRC20', address: TRON }, 'en')).toEqual({});
  });

  it('refuse an address of the other network or with a wrong character, in the server’s words', () => {
    const invalid = translate('en', 'field_error', {
      field: fieldLabel('en', 'address'),
      reason: translate('en', 'reason.address_invalid'),
    });
    expect(invalid).toBe('receiving address: this is not a valid address for the network chosen (check every character)');
    expect(requestProblems(addCryptoMethodRequest, { network: 'TRC20', address: EVM }, 'en').address).toBe(invalid);
    expect(requestProblems(addCryptoMethodRequest, { network: 'BEP20', address: TRON }, 'en').address).toBe(invalid);
    // One character changed in a checksummed address.
    const typo = EVM.replace('E0F', 'e0F');
    expect(requestProblems(addCryptoMethodRequest, { network: 'BEP20', address: typo }, 'en').address).toBe(invalid);
    const tronTypo = `${TRON.slice(0, -1)}8`;
    expect(requestProblems(addCryptoMethodRequest, { network: 'TRC20', address: tronTypo }, 'ja').address).toBe(
      translate('ja', 'field_error', {
        field: fieldLabel('ja', 'address'),
        reason: translate('ja', 'reason.address_invalid'),
      }),
    );
  });

  it('ask for an empty address', () => {
    expect(requestProblems(addCryptoMethodRequest, { network: 'BEP20', address: '  ' }, 'en').address).toBe(
      'please enter receiving address',
    );
  });

  it('check bank cards field by field', () => {
    const card = { bankName: 'Bank of China', cardNumber: '6222 0000 1111 2222', holderName: 'Li Lei', branch: 'Pudong' };
    expect(requestProblems(addBankMethodRequest, card, 'en')).toEqual({});
    expect(requestProblems(addBankMethodRequest, { ...card, cardNumber: '1234' }, 'en')).toEqual({
      cardNumber: 'card number: please enter the card number (10 to 30 digits)',
    });
    expect(requestProblems(addBankMethodRequest, { ...card, bankName: '', branch: '' }, 'en')).toEqual({
      bankName: 'please enter bank name',
      branch: 'please enter branch',
    });
  });
});
