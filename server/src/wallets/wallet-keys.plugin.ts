import { loadWalletKeys, WalletKeyError, xpubVariable, type WalletKeys } from './keys.ts';
import { chainNetworkOf } from './networks.ts';
import { shared } from '../infra/shared.ts';
import { depositAddressesRepository } from './deposit-addresses.repository.ts';

declare module 'fastify' {
  interface FastifyInstance {
    walletKeys: WalletKeys;
  }
}

/**
 * Tier 0: the deposit addresses' watch-only keys (wallets/keys.ts), read before the database opens. They need none,
 * and deriving them (secp256k1's table for its first multiplication, about a tenth of a second of CPU time) then
 * runs, in the production build, while PGlite's own thread is still opening it (bench/README.md "Restart to
 * ready"). A production server without its keys stops here.
 */
export const walletKeysPlugin = shared('peerex-wallet-keys', async (app) => {
  app.decorate(
    'walletKeys',
    await loadWalletKeys({
      xpubs: app.config.walletXpubs,
      production: app.config.nodeEnv === 'production',
      dataDir: app.config.dataDir,
      appSecret: app.config.appSecret,
    }),
  );
});

/**
 * Tier 2: at boot, the keys against the addresses already handed out: a key that no longer derives them (a changed
 * WALLET_XPUB_*, a lost development mnemonic) would give traders addresses nobody watches, so the server refuses to
 * start.
 */
export const walletKeysCheckPlugin = shared('peerex-wallet-keys-check', async (app) => {
  const keys = app.walletKeys;
  for (const first of await depositAddressesRepository(app.db).firstOfEachNetwork()) {
    const { network } = first;
    // A network no longer configured derives nothing now; its addresses are not offered (wallets/addresses.ts).
    const chain = chainNetworkOf(network);
    if (!chain) continue;
    const derived = keys.addressAt(network, first.derivation_index);
    if (derived !== first.address) {
      throw new WalletKeyError(
        `Refusing to start: the ${network} key (${keys.sourceOf(network)}) does not derive the deposit addresses already handed out ` +
          `(index ${first.derivation_index} is ${first.address}, this key gives ${derived}). Restore the key they came from ` +
          `(${xpubVariable(chain.account)}, or the development mnemonic in DATA_DIR).`,
      );
    }
  }
});
