import { hkdf } from '@noble/hashes/hkdf.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { HDKey } from '@scure/bip32';
import { entropyToMnemonic, generateMnemonic, mnemonicToSeedSync, validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { NETWORK_KEYS, type BuiltInNetworkKey, type NetworkKey } from '../../../contracts/wallet.ts';
import { CHAIN_NETWORKS, chainNetworkOf } from './networks.ts';

/**
 * The watch-only keys of the deposit addresses: one BIP-32 account-level extended public key per network
 * (WALLET_XPUB_<NETWORK>). The server derives `…/0/<index>` from it and never holds a spending key in
 * production. In development, a network without its variable takes its key from a BIP-39 mnemonic the
 * server generates once into DATA_DIR (printed nowhere; the file is the developer's to keep or delete).
 * An EVM network an operator configured beyond the built-in ones derives from Ethereum's key
 * (ChainNetwork.account): the same address scheme on every EVM chain.
 */
export interface WalletKeys {
  /** The deposit address of child `index` on the network's external chain (`…/0/index`). */
  addressAt(network: NetworkKey, index: number): string;
  /** Where each network's key came from, for the boot line and for refusals. */
  sourceOf(network: NetworkKey): string;
}

export class WalletKeyError extends Error {
  override name = 'WalletKeyError';
}

/** The file a development mnemonic lives in, under DATA_DIR. */
export const DEV_MNEMONIC_FILE = 'wallet-mnemonic.txt';
/** An account-level key (m/purpose'/coin'/account') has depth 3; a root or address key here is a mistake. */
const ACCOUNT_DEPTH = 3;

export const xpubVariable = (network: BuiltInNetworkKey) => `WALLET_XPUB_${network.toUpperCase()}`;

/** Parses WALLET_XPUB_<NETWORK>: an account's extended public key in any of the network's usual prefixes. */
export function parseAccountKey(network: BuiltInNetworkKey, text: string): HDKey {
  const variable = xpubVariable(network);
  let key: HDKey | undefined;
  for (const versions of CHAIN_NETWORKS[network].versions) {
    try {
      key = HDKey.fromExtendedKey(text.trim(), versions);
      break;
    } catch {
      // Another prefix, or not a key at all: try the next, then say so below.
    }
  }
  if (!key) throw new WalletKeyError(`${variable} is not an extended public key for ${network}.`);
  if (key.privateKey) {
    throw new WalletKeyError(`${variable} holds a private key. Give the account's extended public key: the server never needs to spend.`);
  }
  if (key.depth !== ACCOUNT_DEPTH) {
    throw new WalletKeyError(
      `${variable} is a key at depth ${key.depth}; it must be the account key ${CHAIN_NETWORKS[network].accountPath} (depth ${ACCOUNT_DEPTH}).`,
    );
  }
  return key;
}

/** The account keys of a BIP-39 mnemonic, one per network, at each network's account path. */
export function accountKeysOfMnemonic(mnemonic: string): Record<BuiltInNetworkKey, HDKey> {
  const root = HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic));
  const keys = {} as Record<BuiltInNetworkKey, HDKey>;
  for (const network of NETWORK_KEYS) {
    // Keep only the public half: nothing after boot can spend, whatever the mnemonic's origin.
    const account = root.derive(CHAIN_NETWORKS[network].accountPath);
    keys[network] = HDKey.fromExtendedKey(account.publicExtendedKey);
  }
  return keys;
}

/**
 * The development mnemonic: read from DATA_DIR, or generated there once (mode 0600, created exclusively, so
 * two processes starting together agree on one). With DATA_DIR=memory:// nothing is kept, so it is derived
 * from APP_SECRET instead: every process sharing the secret (a test's two servers) derives the same one.
 */
async function developmentMnemonic(dataDir: string, appSecret: string): Promise<{ mnemonic: string; source: string }> {
  if (dataDir.startsWith('memory://')) {
    const entropy = hkdf(sha256, new TextEncoder().encode(appSecret), undefined, new TextEncoder().encode('peerex development wallet mnemonic'), 32);
    return { mnemonic: entropyToMnemonic(entropy, wordlist), source: 'a development mnemonic derived from APP_SECRET' };
  }
  const path = join(dataDir, DEV_MNEMONIC_FILE);
  const source = `the development mnemonic in ${path}`;
  await mkdir(dataDir, { recursive: true });
  try {
    await writeFile(path, `${generateMnemonic(wordlist, 256)}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const mnemonic = (await readFile(path, 'utf8')).trim();
  if (!validateMnemonic(mnemonic, wordlist)) throw new WalletKeyError(`${path} is not a BIP-39 mnemonic. Restore it, or delete it together with the database.`);
  return { mnemonic, source };
}

export interface WalletKeysOptions {
  xpubs: Partial<Record<BuiltInNetworkKey, string>>;
  production: boolean;
  dataDir: string;
  appSecret: string;
}

/** The keys of every network, or a WalletKeyError that names what is missing or wrong. */
export async function loadWalletKeys(options: WalletKeysOptions): Promise<WalletKeys> {
  const missing = NETWORK_KEYS.filter((network) => options.xpubs[network] === undefined);
  if (options.production && missing.length > 0) {
    throw new WalletKeyError(
      `Refusing to start: NODE_ENV=production needs ${missing.map(xpubVariable).join(', ')}: the account-level extended public keys ` +
        'the deposit addresses are derived from (README "Wallets").',
    );
  }
  const accounts = {} as Record<BuiltInNetworkKey, HDKey>;
  const sources = {} as Record<BuiltInNetworkKey, string>;
  const fallback = missing.length > 0 ? await developmentMnemonic(options.dataDir, options.appSecret) : undefined;
  const fromMnemonic = fallback ? accountKeysOfMnemonic(fallback.mnemonic) : undefined;
  for (const network of NETWORK_KEYS) {
    const xpub = options.xpubs[network];
    if (xpub !== undefined) {
      accounts[network] = parseAccountKey(network, xpub);
      sources[network] = xpubVariable(network);
    } else if (fromMnemonic && fallback) {
      accounts[network] = fromMnemonic[network];
      sources[network] = fallback.source;
    }
  }
  // The external chain (…/0) once per network; each address is one more child of it.
  const external = new Map(NETWORK_KEYS.map((network) => [network, accounts[network].deriveChild(0)]));
  return {
    addressAt(network, index) {
      if (!Number.isInteger(index) || index < 0 || index >= 2 ** 31) throw new WalletKeyError(`No address index ${index}`);
      const chain = chainNetworkOf(network);
      const child = chain && external.get(chain.account)?.deriveChild(index);
      if (!chain || !child?.publicKey) throw new WalletKeyError(`No ${network} key`);
      return chain.addressOf(child.publicKey);
    },
    sourceOf: (network) => {
      const chain = chainNetworkOf(network);
      return chain ? sources[chain.account] : `no key (${network} is not a network this server derives addresses for)`;
    },
  };
}

/**
 * WALLET_XPUB_<NETWORK> for every network of a mnemonic, as an environment: what an operator derives on
 * an offline machine, and what tests and benchmarks that run with NODE_ENV=production boot with.
 */
export function xpubEnvironmentOf(mnemonic: string): Record<string, string> {
  const keys = accountKeysOfMnemonic(mnemonic);
  return Object.fromEntries(NETWORK_KEYS.map((network) => [xpubVariable(network), keys[network].publicExtendedKey]));
}
