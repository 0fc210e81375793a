import type { FastifyInstance } from 'fastify';
import type { NetworkKey } from '../../../../contracts/wallet.ts';
import type { ChainAdapter } from '../adapter.ts';
import { evmChain, evmClient, verifyChainId } from './evm-chain.ts';
import { openHotWallet } from './hot-wallet.ts';

/**
 * The adapters of EVM_NETWORKS (docs/chains.md), one per network. With NODE_ENV=production a node that answers
 * another chain id than configured stops the server from starting; elsewhere it is logged and the adapter
 * refuses to read or pay on that network until it agrees (chain/evm/evm-chain.ts). A node that does not answer
 * at all does not stop the marketplace: its network is checked at its first round instead. `onBlock`: a
 * network with a websocket URL calls it on each new block (the plugin kicks the watcher).
 */
export async function openEvmNetworks(app: FastifyInstance, onBlock: () => void): Promise<Map<NetworkKey, ChainAdapter>> {
  const adapters = new Map<NetworkKey, ChainAdapter>();
  for (const config of app.config.evmNetworks) {
    const client = evmClient(config);
    let verified = false;
    try {
      await verifyChainId(client, config);
      verified = true;
    } catch (error) {
      if (error instanceof Error && error.name === 'WrongChain') {
        if (app.config.nodeEnv === 'production') throw new Error(`Refusing to start: ${error.message}.`);
        app.log.error({ network: config.network }, error.message);
      } else {
        app.log.warn({ network: config.network, err: error }, 'EVM node did not answer at start: checked again at its first round');
      }
    }
    // A key file others can read, or a signer that does not sign for its address, stops the start
    // (HotWalletConfigError): a server must never run with a hot wallet it cannot trust.
    const payer = config.hotWallet
      ? await openHotWallet({ db: app.db, config, client, now: app.now, production: app.config.nodeEnv === 'production', log: app.log, chainVerified: verified })
      : undefined;
    adapters.set(config.network, evmChain({ config, client, payer, onBlock, verified }));
  }
  return adapters;
}
