import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { base58check as base58checkOf } from '@scure/base';
import { Address, NETWORK as BITCOIN, p2wpkh } from '@scure/btc-signer';

type BitcoinLikeNetwork = typeof BITCOIN;
import { addr as ethereumAddress } from 'micro-eth-signer';
import { isBuiltInNetworkKey, type BuiltInNetworkKey, type NetworkKey } from '../../../contracts/wallet.ts';

/**
 * What the server knows about each chain (docs/rules.md "Wallets"): which BIP-32 account a network's
 * extended public key is, how a child public key becomes an address, and which text is a valid address
 * (checksum included). Every step is a call into an audited library (@scure/btc-signer for bech32 and
 * base58 bitcoin addresses, micro-eth-signer for EIP-55, @noble for keccak and the curve, @scure/base for
 * base58check); nothing here is cryptography written by hand.
 */
export interface ChainNetwork {
  key: NetworkKey;
  /**
   * The built-in network whose account key (WALLET_XPUB_<ACCOUNT>) derives this one's deposit addresses: itself,
   * or `ethereum` for every other EVM network, whose addresses are Ethereum's (a trader has one address on all of them).
   */
  account: BuiltInNetworkKey;
  /** The BIP-44/84 account whose extended public key WALLET_XPUB_<ACCOUNT> holds; deposit addresses are its `…/0/index`. */
  accountPath: string;
  /** Extended-key version bytes (public, private) this network's keys may be written with, the first the default. */
  versions: readonly { public: number; private: number }[];
  /** The address of one child public key (33 bytes, compressed). */
  addressOf(publicKey: Uint8Array): string;
  /** The address as the network writes it, when `text` is a valid address of this network; otherwise undefined. */
  parseAddress(text: string): string | undefined;
  /** A transaction id as this network writes it (for the simulated chain and for checks). */
  txidOf(bytes: Uint8Array): string;
}

/** Standard `xpub`/`xprv` (BIP-32), accepted on every network. */
const XPUB = { public: 0x0488b21e, private: 0x0488ade4 } as const;
/** `zpub`/`zprv` (SLIP-132): native SegWit accounts (BIP-84). */
const ZPUB = { public: 0x04b24746, private: 0x04b2430c } as const;
/** `Ltub`/`Ltpv` and `Mtub`/`Mtpv` (SLIP-132): Litecoin's own prefixes. */
const LTUB = { public: 0x019da462, private: 0x019d9cfe } as const;
const MTUB = { public: 0x01b26ef6, private: 0x01b26792 } as const;

const LITECOIN: BitcoinLikeNetwork = { bech32: 'ltc', pubKeyHash: 0x30, scriptHash: 0x32, wif: 0xb0 };
/** Tron: base58check of 0x41 followed by the Ethereum-style 20-byte account hash. */
const TRON_PREFIX = 0x41;
const base58check = base58checkOf(sha256);
const hex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

/** Addresses a trader may send to on a bitcoin-like chain: native SegWit (v0, v1 taproot) and legacy P2PKH/P2SH. */
function bitcoinLike(key: BuiltInNetworkKey, coinType: number, network: BitcoinLikeNetwork, versions: ChainNetwork['versions']): ChainNetwork {
  const decoder = Address(network);
  return {
    key,
    account: key,
    accountPath: `m/84'/${coinType}'/0'`,
    versions,
    addressOf: (publicKey) => {
      const { address } = p2wpkh(publicKey, network);
      if (address === undefined) throw new Error(`No ${key} address for that key`);
      return address;
    },
    parseAddress: (text) => {
      // Bech32 is case-insensitive but must not mix cases; the canonical form is lower case.
      const candidate = text === text.toUpperCase() && text.toLowerCase().startsWith(`${network.bech32}1`) ? text.toLowerCase() : text;
      try {
        const decoded = decoder.decode(candidate);
        // Only what a wallet can pay to: not bare public keys, multisig scripts or unknown witness programs.
        return ['pkh', 'sh', 'wpkh', 'wsh', 'tr'].includes(decoded.type) ? candidate : undefined;
      } catch {
        return undefined;
      }
    },
    txidOf: hex,
  };
}

/** The 20-byte account hash of a secp256k1 public key, as Ethereum and Tron use it. */
const accountHash = (publicKey: Uint8Array) => keccak_256(secp256k1.Point.fromBytes(publicKey).toBytes(false).subarray(1)).subarray(-20);

export const CHAIN_NETWORKS: Readonly<Record<BuiltInNetworkKey, ChainNetwork>> = {
  bitcoin: bitcoinLike('bitcoin', 0, BITCOIN, [ZPUB, XPUB]),
  litecoin: bitcoinLike('litecoin', 2, LITECOIN, [ZPUB, XPUB, LTUB, MTUB]),
  ethereum: {
    key: 'ethereum',
    account: 'ethereum',
    accountPath: "m/44'/60'/0'",
    versions: [XPUB],
    addressOf: (publicKey) => ethereumAddress.fromPublicKey(publicKey),
    parseAddress: (text) => {
      if (!/^0x[0-9a-fA-F]{40}$/.test(text)) return undefined;
      // All lower or all upper case carries no checksum (EIP-55 accepts it); mixed case must be the checksum.
      const body = text.slice(2);
      if (body !== body.toLowerCase() && body !== body.toUpperCase() && !ethereumAddress.isValid(text)) return undefined;
      return ethereumAddress.addChecksum(text);
    },
    txidOf: (bytes) => `0x${hex(bytes)}`,
  },
  tron: {
    key: 'tron',
    account: 'tron',
    accountPath: "m/44'/195'/0'",
    versions: [XPUB],
    addressOf: (publicKey) => base58check.encode(Uint8Array.of(TRON_PREFIX, ...accountHash(publicKey))),
    parseAddress: (text) => {
      if (!/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(text)) return undefined;
      try {
        const bytes = base58check.decode(text);
        return bytes.length === 21 && bytes[0] === TRON_PREFIX ? text : undefined;
      } catch {
        return undefined;
      }
    },
    txidOf: hex,
  },
};

/** The EVM networks of EVM_NETWORKS that are not built in (docs/chains.md "Adding a network"), as configured at start. */
const configuredEvmNetworks = new Map<NetworkKey, ChainNetwork>();

/**
 * Makes each EVM network of the configuration (EvmNetworkConfig.network) known by its key: a built-in one is
 * already; any other is an Ethereum-family network, with Ethereum's addresses derived from Ethereum's account
 * key. Called once at start (infra/core.plugin.ts); a key means the same wherever it is configured, so a
 * second call (another server in the same process, in tests) only adds.
 */
export function addEvmNetworks(keys: readonly NetworkKey[]): void {
  for (const key of keys) {
    if (!isBuiltInNetworkKey(key)) configuredEvmNetworks.set(key, { ...CHAIN_NETWORKS.ethereum, key });
  }
}

/**
 * The rules of a network key as coin_networks names it, or undefined for a key this server can neither derive
 * addresses for nor check them on (an operator's row with no EVM configuration): such a network is not offered.
 */
export const chainNetworkOf = (key: NetworkKey): ChainNetwork | undefined =>
  isBuiltInNetworkKey(key) ? CHAIN_NETWORKS[key] : configuredEvmNetworks.get(key);
