import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NETWORK_KEYS } from '../../contracts/wallet.ts';
import { accountKeysOfMnemonic, DEV_MNEMONIC_FILE, loadWalletKeys, parseAccountKey, WalletKeyError } from '../../server/src/wallets/keys.ts';
import { CHAIN_NETWORKS } from '../../server/src/wallets/networks.ts';
import { createTestApp } from '../support/server.ts';
import { depositAddress } from '../support/server-chain.ts';
import { insertUser } from '../support/server-money.ts';

/** The mnemonic of the BIPs' and wallets' published test vectors (all its keys are public knowledge). */
const ABANDON = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
/** BIP-84's account 0 of ABANDON, as the BIP prints it. */
const BIP84_ZPUB =
  'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';

const xpubsOf = (mnemonic: string) => {
  const keys = accountKeysOfMnemonic(mnemonic);
  return Object.fromEntries(NETWORK_KEYS.map((network) => [network, keys[network].publicExtendedKey]));
};

describe('deposit address derivation (test vectors)', () => {
  it('derives BIP-84 bitcoin addresses from the zpub the BIP publishes', async () => {
    const keys = await loadWalletKeys({ xpubs: { ...xpubsOf(ABANDON), bitcoin: BIP84_ZPUB }, production: true, dataDir: 'memory://', appSecret: 'x'.repeat(16) });
    // BIP-84 "Test vectors": m/84'/0'/0'/0/0 and m/84'/0'/0'/0/1.
    expect(keys.addressAt('bitcoin', 0)).toBe('bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu');
    expect(keys.addressAt('bitcoin', 1)).toBe('bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g');
  });

  it('derives litecoin (BIP-84), ethereum (BIP-44, EIP-55) and tron (BIP-44, base58check) addresses as published wallets do', async () => {
    const keys = await loadWalletKeys({ xpubs: xpubsOf(ABANDON), production: true, dataDir: 'memory://', appSecret: 'x'.repeat(16) });
    expect(keys.addressAt('litecoin', 0)).toBe('ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh');
    expect(keys.addressAt('ethereum', 0)).toBe('0x9858EfFD232B4033E47d90003D41EC34EcaEda94');
    expect(keys.addressAt('tron', 0)).toBe('TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH');
  });

  it('gives every index its own address, the same on every call', async () => {
    const keys = await loadWalletKeys({ xpubs: xpubsOf(ABANDON), production: true, dataDir: 'memory://', appSecret: 'x'.repeat(16) });
    for (const network of NETWORK_KEYS) {
      const addresses = Array.from({ length: 20 }, (_, index) => keys.addressAt(network, index));
      expect(new Set(addresses).size).toBe(20);
      expect(keys.addressAt(network, 7)).toBe(addresses[7]);
    }
  });
});

describe('address validation', () => {
  it('accepts EIP-55 checksummed addresses and refuses a broken checksum (EIP-55 test cases)', () => {
    const { parseAddress } = CHAIN_NETWORKS.ethereum;
    for (const address of [
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
      '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
      '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
    ]) {
      expect(parseAddress(address)).toBe(address);
      // Without a checksum (one case throughout) it is valid, and written back checksummed.
      expect(parseAddress(address.toLowerCase())).toBe(address);
    }
    expect(parseAddress('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD')).toBeUndefined();
    expect(parseAddress('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe')).toBeUndefined();
    expect(parseAddress('5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBeUndefined();
  });

  it('checks bech32 and base58 checksums on bitcoin and litecoin, and keeps the networks apart', () => {
    const bitcoin = CHAIN_NETWORKS.bitcoin.parseAddress;
    const litecoin = CHAIN_NETWORKS.litecoin.parseAddress;
    // BIP-173 and BIP-350 valid addresses; a P2PKH and a P2SH address (the genesis coinbase's, BIP-16's example).
    expect(bitcoin('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4')).toBe('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4');
    expect(bitcoin('BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4')).toBe('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4');
    expect(bitcoin('bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0')).toBeDefined();
    expect(bitcoin('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa')).toBe('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa');
    expect(bitcoin('3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy')).toBeDefined();
    // One character off, mixed case, another network's prefix, nothing.
    expect(bitcoin('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5')).toBeUndefined();
    expect(bitcoin('bc1qW508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4')).toBeUndefined();
    expect(bitcoin('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb')).toBeUndefined();
    expect(bitcoin('ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh')).toBeUndefined();
    expect(bitcoin('')).toBeUndefined();
    expect(litecoin('ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh')).toBe('ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh');
    expect(litecoin('bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu')).toBeUndefined();
  });

  it('checks tron base58check addresses', () => {
    const tron = CHAIN_NETWORKS.tron.parseAddress;
    expect(tron('TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH')).toBe('TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH');
    // USDT's own TRC-20 contract address is a valid tron address.
    expect(tron('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');
    expect(tron('TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdJ')).toBeUndefined();
    expect(tron('0x9858EfFD232B4033E47d90003D41EC34EcaEda94')).toBeUndefined();
  });
});

describe('where the keys come from', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('refuses to start in production without every WALLET_XPUB_<NETWORK>, naming the missing ones', async () => {
    await expect(loadWalletKeys({ xpubs: { bitcoin: BIP84_ZPUB }, production: true, dataDir: 'memory://', appSecret: 'x'.repeat(16) })).rejects.toThrow(
      /NODE_ENV=production needs WALLET_XPUB_ETHEREUM, WALLET_XPUB_TRON, WALLET_XPUB_LITECOIN/,
    );
  });

  it('refuses to start in production without them before it opens the database', async () => {
    // A data directory a live process holds: had the database opened first, the start would fail on that instead.
    const dataDir = await mkdtemp(join(tmpdir(), 'peerex-keys-first-'));
    dirs.push(dataDir);
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
    try {
      await writeFile(join(dataDir, 'pgdata.lock'), String(holder.pid));
      await expect(createTestApp('pglite', { env: { NODE_ENV: 'production', DATA_DIR: dataDir, WALLET_XPUB_BITCOIN: BIP84_ZPUB } })).rejects.toThrow(
        /NODE_ENV=production needs WALLET_XPUB_ETHEREUM/,
      );
    } finally {
      holder.kill('SIGKILL');
    }
  });

  it('refuses a private key, a key that is not an account key, and text that is no key', () => {
    const root = HDKey.fromMasterSeed(mnemonicToSeedSync(ABANDON));
    expect(() => parseAccountKey('bitcoin', root.derive("m/84'/0'/0'").privateExtendedKey)).toThrow(/holds a private key/);
    expect(() => parseAccountKey('ethereum', root.publicExtendedKey)).toThrow(/depth 0; it must be the account key m\/44'\/60'\/0'/);
    expect(() => parseAccountKey('tron', 'xpub-nonsense')).toThrow(WalletKeyError);
  });

  it('generates a development mnemonic once into DATA_DIR (mode 0600) and derives the same addresses from it on every boot', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'peerex-keys-'));
    dirs.push(dataDir);
    const options = { xpubs: {}, production: false, dataDir, appSecret: 'x'.repeat(16) };
    const first = await loadWalletKeys(options);
    const again = await loadWalletKeys(options);
    const file = join(dataDir, DEV_MNEMONIC_FILE);
    expect((await readFile(file, 'utf8')).trim().split(' ')).toHaveLength(24);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    for (const network of NETWORK_KEYS) expect(again.addressAt(network, 3)).toBe(first.addressAt(network, 3));
    expect(first.sourceOf('bitcoin')).toContain(file);
    // A network with its variable set uses it; the others still come from the mnemonic.
    const mixed = await loadWalletKeys({ ...options, xpubs: { bitcoin: BIP84_ZPUB } });
    expect(mixed.addressAt('bitcoin', 0)).toBe('bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu');
    expect(mixed.addressAt('tron', 0)).toBe(first.addressAt('tron', 0));
  });

  it('derives the in-memory development mnemonic from APP_SECRET, so processes sharing it agree', async () => {
    const a = await loadWalletKeys({ xpubs: {}, production: false, dataDir: 'memory://', appSecret: 'one-secret-of-enough-length' });
    const b = await loadWalletKeys({ xpubs: {}, production: false, dataDir: 'memory://', appSecret: 'one-secret-of-enough-length' });
    const c = await loadWalletKeys({ xpubs: {}, production: false, dataDir: 'memory://', appSecret: 'another-secret-of-enough-length' });
    expect(b.addressAt('ethereum', 0)).toBe(a.addressAt('ethereum', 0));
    expect(c.addressAt('ethereum', 0)).not.toBe(a.addressAt('ethereum', 0));
  });
});

// Two servers on one database: PostgreSQL only (DATABASE_URL, as .ci/run sets it), like the other multi-process tests.
describe.each(process.env.DATABASE_URL ? ['postgres'] : [])('the keys at boot, against the addresses already handed out (%s)', () => {
  it('refuses to start when a key no longer derives the addresses handed out, naming the network and the way back', async () => {
    const first = await createTestApp('postgres');
    try {
      const user = await insertUser(first.app.db);
      const handedOut = await depositAddress(first, user.id, 'bitcoin');
      const databaseUrl = first.config.databaseUrl ?? '';
      // The same keys boot again.
      const again = await createTestApp('pglite', { env: { DATABASE_URL: databaseUrl } });
      expect(await depositAddress(again, user.id, 'bitcoin')).toBe(handedOut);
      await again.close();
      // Other keys (here: the development mnemonic of another APP_SECRET) would hand out addresses nobody watches.
      await expect(
        createTestApp('pglite', { env: { DATABASE_URL: databaseUrl, APP_SECRET: 'another-secret-of-enough-length-000' } }),
      ).rejects.toThrow(new RegExp(`the bitcoin key .* does not derive the deposit addresses already handed out \\(index 0 is ${handedOut}`));
    } finally {
      await first.close();
    }
  });
});
