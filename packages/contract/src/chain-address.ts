import { createBase58check } from '@scure/base';
import { keccak_256 } from '@noble/hashes/sha3';
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';

const base58check = createBase58check(sha256);

/**
 * A BSC (EVM) address: 0x and 40 hex digits; when it mixes upper and lower case, the case must be
 * the EIP-55 checksum (so a mistyped character is caught), all-lower or all-upper is accepted.
 */
export function isEvmAddress(value: string): boolean {
  if (!/^0x[0-9a-fA-F]{40}$/.test(value)) return false;
  const body = value.slice(2);
  if (body === body.toLowerCase() || body === body.toUpperCase()) return true;
  return toChecksumAddress(value) === value;
}

/** The EIP-55 form of an EVM address. */
export function toChecksumAddress(value: string): string {
  const body = value.slice(2).toLowerCase();
  const hash = bytesToHex(keccak_256(utf8ToBytes(body)));
  let result = '0x';
  for (let index = 0; index < body.length; index += 1) {
    result += Number.parseInt(hash[index]!, 16) >= 8 ? body[index]!.toUpperCase() : body[index];
  }
  return result;
}

/** A TRON address: base58check of 0x41 and a 20-byte hash (`T…`), checksum included. */
export function isTronAddress(value: string): boolean {
  if (!/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(value)) return false;
  try {
    const bytes = base58check.decode(value);
    return bytes.length === 21 && bytes[0] === 0x41;
  } catch {
    return false;
  }
}
