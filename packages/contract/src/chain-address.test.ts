import { describe, expect, it } from 'vitest';
import { isEvmAddress, isTronAddress, toChecksumAddress } from './chain-address.js';
import { addBankMethodRequest, addCryptoMethodRequest } from './api/withdraw.js';

describe('chain addresses', () => {
  it('accepts EIP-55 checksummed, all-lower and all-upper EVM addresses, and refuses a wrong checksum', () => {
    const checksummed = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
    expect(isEvmAddress(checksummed)).toBe(true);
    expect(toChecksumAddress(checksummed.toLowerCase())).toBe(checksummed);
    expect(isEvmAddress(checksummed.toLowerCase())).toBe(true);
    expect(isEvmAddress('0x' + checksummed.slice(2).toUpperCase())).toBe(true);
    expect(isEvmAddress('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD')).toBe(false);
    expect(isEvmAddress('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeA')).toBe(false);
    expect(isEvmAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe(false);
  });

  it('accepts TRON base58check addresses and refuses a changed character', () => {
    expect(isTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe(true);
    expect(isTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6T')).toBe(false);
    expect(isTronAddress('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBe(false);
  });

  it('checks the address against the network chosen, naming the field', () => {
    const wrongNetwork = addCryptoMethodRequest.safeParse({ network: 'BEP20', address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' });
    expect(wrongNetwork.success).toBe(false);
    expect(wrongNetwork.error?.issues[0]).toMatchObject({ path: ['address'], message: 'address_invalid' });
    expect(addCryptoMethodRequest.safeParse({ network: 'TRC20', address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' }).success).toBe(
      true,
    );
  });

  it('keeps card numbers as digits', () => {
    const parsed = addBankMethodRequest.parse({
      bankName: 'ICBC',
      cardNumber: '6222 0212 3456 7890 123',
      holderName: 'Li Lei',
      branch: 'Pudong',
    });
    expect(parsed.cardNumber).toBe('62220212345678901 23'.replace(' ', ''));
    expect(addBankMethodRequest.safeParse({ bankName: 'ICBC', cardNumber: '12ab', holderName: 'x', branch: 'y' }).success).toBe(
      false,
    );
  });
});
