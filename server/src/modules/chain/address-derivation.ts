import { HDKey } from '@scure/bip32';
import { createBase58check } from '@scure/base';
import { secp256k1 } from '@noble/curves/secp256k1';
import { keccak_256 } from '@noble/hashes/sha3';
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex } from '@noble/hashes/utils';
import { getAddress } from 'viem';
import type { Network } from '@custos/contract';

const base58check = createBase58check(sha256);
/** TRON prefixes the 20-byte account hash with 0x41 before base58check. */
const TRON_PREFIX = 0x41;

export interface DerivedAddress {
  /** As shown to members: EIP-55 checksum (BEP20) or base58check `T…` (TRC20). */
  address: string;
  /** The 20-byte account hash as lowercase 0x-hex, which both chains' transfer events carry. */
  matchKey: string;
}

/**
 * Derives deposit addresses from an account-level extended public key (BIP-44 `m/44'/60'/0'` for
 * BSC, `m/44'/195'/0'` for TRON): address `index` is the key at `…/0/index` (the external chain).
 * Only public keys are involved: the server can make addresses but never spend from them.
 */
export class AddressDeriver {
  private readonly external: HDKey;

  constructor(
    readonly network: Network,
    accountXpub: string,
  ) {
    const account = HDKey.fromExtendedKey(accountXpub);
    if (account.privateKey) throw new Error('a deposit key must be an extended public key, not a private one');
    this.external = account.deriveChild(0);
  }

  derive(index: number): DerivedAddress {
    const child = this.external.deriveChild(index);
    if (!child.publicKey) throw new Error(`no public key at index ${index}`);
    return addressOfPublicKey(this.network, child.publicKey);
  }
}

export function addressOfPublicKey(network: Network, compressedPublicKey: Uint8Array): DerivedAddress {
  const uncompressed = secp256k1.ProjectivePoint.fromHex(compressedPublicKey).toRawBytes(false);
  const accountHash = keccak_256(uncompressed.subarray(1)).subarray(12);
  const matchKey = `0x${bytesToHex(accountHash)}`;
  if (network === 'BEP20') return { address: getAddress(matchKey), matchKey };
  const prefixed = new Uint8Array(21);
  prefixed[0] = TRON_PREFIX;
  prefixed.set(accountHash, 1);
  return { address: base58check.encode(prefixed), matchKey };
}

/** The 20-byte hash of a TRON base58 address (`T…`), or null if it is not a valid one. */
export function tronMatchKey(address: string): string | null {
  try {
    const bytes = base58check.decode(address);
    if (bytes.length !== 21 || bytes[0] !== TRON_PREFIX) return null;
    return `0x${bytesToHex(bytes.subarray(1))}`;
  } catch {
    return null;
  }
}
