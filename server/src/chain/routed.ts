import type { NetworkKey } from '../../../contracts/wallet.ts';
import type { ChainAdapter } from './adapter.ts';

/**
 * Several adapters as one (docs/chains.md): each network named in `byNetwork` goes to its own adapter (an EVM
 * network's node), every other network to `fallback` (CHAIN_SOURCE, the simulated chain by default).
 */
export function routedChain(fallback: ChainAdapter, byNetwork: ReadonlyMap<NetworkKey, ChainAdapter>): ChainAdapter {
  if (byNetwork.size === 0) return fallback;
  const of = (network: NetworkKey) => byNetwork.get(network) ?? fallback;
  return {
    name: `${fallback.name}+${[...new Set([...byNetwork.values()].map((adapter) => adapter.name))].join('+')}`,
    confirmationsToCredit: (network) => of(network).confirmationsToCredit(network),
    watch: (network, address) => of(network).watch(network, address),
    incoming: (network, cursor, limit) => of(network).incoming(network, cursor, limit),
    confirmations: (network, txids) => of(network).confirmations(network, txids),
    broadcast: (request) => of(request.network).broadcast(request),
    tend: async (network) => (await of(network).tend?.(network)) ?? [],
    progress: async (network, cursor) => (await of(network).progress?.(network, cursor)) ?? { lastBlock: null, head: null, lag: null },
    async close() {
      await Promise.all([fallback, ...byNetwork.values()].map((adapter) => adapter.close()));
    },
  };
}
