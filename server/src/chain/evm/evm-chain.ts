import { createPublicClient, http, webSocket, type Hash, type PublicClient } from 'viem';
import type { NetworkKey } from '../../../../contracts/wallet.ts';
import { CHAIN_NETWORKS } from '../../wallets/networks.ts';
import { BroadcastRefused, BroadcastWaiting, type BroadcastRequest, type ChainAdapter } from '../adapter.ts';
import type { EvmNetworkConfig } from './config.ts';
import { progressOf, readIncoming } from './incoming.ts';

/** What the adapter needs of the hot wallet (chain/evm/hot-wallet.ts): pay once per reference, and tend what it sent. */
export interface EvmPayer {
  readonly address: `0x${string}`;
  pay(request: { reference: string; to: `0x${string}`; asset: string; amount: string }): Promise<{ txid: string }>;
  tend(): Promise<{ reference: string; txid: string; problem?: 'reverted' | 'nonce-taken' }[]>;
  /** The confirmations of the payment any of these attempt hashes belongs to (its mined attempt's); others left out. */
  confirmations?(txids: readonly string[]): Promise<Map<string, number>>;
  close?(): Promise<void>;
}

/** How long a JSON-RPC call may take before the round gives up on the network (and tries again next round). */
const RPC_TIMEOUT_MS = 15_000;

/** The node answers another chain id than EVM_<NETWORK>_CHAIN_ID. */
export class WrongChain extends Error {
  override name = 'WrongChain';
}

/** Throws WrongChain unless the node's eth_chainId is the configured one. */
export async function verifyChainId(client: PublicClient, config: EvmNetworkConfig): Promise<void> {
  const answered = await client.getChainId();
  if (answered !== config.chainId) {
    throw new WrongChain(
      `the node at EVM_${config.network.toUpperCase()}_RPC_URL is chain ${answered}, not EVM_${config.network.toUpperCase()}_CHAIN_ID ${config.chainId}: ` +
        `${config.network} is not read or paid on until they agree`,
    );
  }
}

/**
 * The EIP-1559 fees to offer now: twice the latest block's base fee (it can rise 12.5% a block, so the cap holds
 * through about six full blocks in a row) plus the node's suggested tip; undefined on a chain without a base fee.
 * Only the base fee actually charged and the tip are paid.
 */
export async function currentFees(client: PublicClient): Promise<{ maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } | undefined> {
  const [block, tip] = await Promise.all([client.getBlock({ blockTag: 'latest' }), client.estimateMaxPriorityFeePerGas()]);
  if (typeof block.baseFeePerGas !== 'bigint') return undefined;
  return { maxFeePerGas: block.baseFeePerGas * 2n + tip, maxPriorityFeePerGas: tip };
}

/** A viem client of the network's node; requests in one tick go in one JSON-RPC batch. */
export const evmClient = (config: EvmNetworkConfig): PublicClient =>
  // cacheTime 0: viem otherwise answers eth_blockNumber from a 4-second cache, and a round would count
  // confirmations against a head it already knows is old.
  createPublicClient({ cacheTime: 0, transport: http(config.rpcUrl, { batch: true, timeout: RPC_TIMEOUT_MS, retryCount: 1 }) }) as PublicClient;

export interface EvmChainDeps {
  config: EvmNetworkConfig;
  client?: PublicClient;
  /** The network's hot wallet; without one, withdrawals wait (BroadcastWaiting) and the operator is told. */
  payer?: EvmPayer | undefined;
  /** The node already answered the configured chain id (chain/evm/networks.ts checks it at start): not asked again. */
  verified?: boolean;
  /** Called when the node's websocket (EVM_<NETWORK>_WS_URL) announces a new block: the watcher runs a round soon. */
  onBlock?: () => void;
}

/**
 * One EVM network through its node's JSON-RPC (docs/chains.md): the ChainAdapter of chain/adapter.ts for that
 * network alone; chain/routed.ts puts it beside the simulated chain.
 */
export function evmChain({ config, client = evmClient(config), payer, onBlock, verified: verifiedAtStart = false }: EvmChainDeps): ChainAdapter & { readonly config: EvmNetworkConfig } {
  const network = config.network;
  // What the platform's own addresses send is never a deposit: the hot wallet, the cold addresses, and the gas
  // station whose top-ups pay a token sweep's gas (chain/evm/sweep.ts).
  const platform = new Set(
    [...(payer ? [payer.address] : []), ...config.coldAddresses, ...(config.gasStation ? [config.gasStation] : [])].map((address) => address.toLowerCase()),
  );
  // Every call first makes sure the node is the configured chain: deposits read from, or withdrawals signed
  // for, another chain (a testnet URL on a mainnet configuration) would be money lost. Once it answered
  // right, it is not asked again; a wrong answer is asked again each round, so fixing the URL is enough.
  let verified: Promise<void> | undefined = verifiedAtStart ? Promise.resolve() : undefined;
  const verify = () => {
    verified ??= verifyChainId(client, config).catch((error: unknown) => {
      verified = undefined;
      throw error;
    });
    return verified;
  };
  const sameNetwork = async (asked: NetworkKey) => {
    if (asked !== network) throw new Error(`the ${network} EVM adapter was asked about ${asked}`);
    await verify();
  };

  let unwatch: (() => Promise<void>) | undefined;
  if (config.wsUrl && onBlock) {
    const heads = createPublicClient({ transport: webSocket(config.wsUrl, { reconnect: true }) });
    const stop = heads.watchBlockNumber({ onBlockNumber: () => onBlock() });
    unwatch = async () => {
      stop();
      // viem keeps the socket (and its reconnecting) after the last subscription ends: close it with the adapter.
      const socket = await heads.transport.getRpcClient().catch(() => undefined);
      socket?.close();
    };
  }

  return {
    name: 'evm',
    config,
    confirmationsToCredit: () => config.confirmations,

    // Blocks are read in full (chain/evm/incoming.ts): every address is seen without being announced.
    watch: async (asked) => {
      if (asked !== network) throw new Error(`the ${network} EVM adapter was asked about ${asked}`);
    },

    incoming: async (asked, cursor) => {
      await sameNetwork(asked);
      return readIncoming(client, config, cursor, platform);
    },

    progress: async (asked, cursor) => {
      await sameNetwork(asked);
      return progressOf(client, config, cursor);
    },

    async confirmations(asked, txids) {
      await sameNetwork(asked);
      // A withdrawal's transaction may have been replaced: the hot wallet answers for its payments by whichever
      // attempt was mined. Deposits (and anything it does not know) are read from their receipts.
      const answer = payer?.confirmations ? await payer.confirmations(txids) : new Map<string, number>();
      const rest = txids.filter((txid) => !answer.has(txid));
      if (rest.length === 0) return answer;
      const head = await client.getBlockNumber();
      const receipts = await Promise.all(
        rest.map((txid) => client.getTransactionReceipt({ hash: txid as Hash }).then((receipt) => receipt, () => undefined)),
      );
      rest.forEach((txid, index) => {
        const receipt = receipts[index];
        // Not mined (or re-organised away), or mined and reverted: it moved nothing, so it has no confirmations.
        if (!receipt || receipt.status !== 'success') return;
        answer.set(txid, Number(head - receipt.blockNumber + 1n));
      });
      return answer;
    },

    async broadcast(request: BroadcastRequest) {
      await sameNetwork(request.network);
      // The hot wallet answers a reference it already paid before it checks anything that could refuse
      // (adapter.ts broadcast): a configuration changed since must never refuse a withdrawal already sent.
      if (payer) return payer.pay({ reference: request.reference, to: request.address as `0x${string}`, asset: request.asset, amount: request.amount });
      const to = CHAIN_NETWORKS.ethereum.parseAddress(request.address);
      if (to === undefined) throw new BroadcastRefused(`${request.address} is not an EVM address`);
      if (request.asset !== config.native && !config.tokens.some((token) => token.ticker === request.asset)) {
        throw new BroadcastRefused(`${request.asset} is not configured on ${network} (EVM_${network.toUpperCase()}_TOKENS)`);
      }
      throw new BroadcastWaiting(
        `no hot wallet is configured for ${network}: set EVM_${network.toUpperCase()}_HOT_WALLET_KEY_FILE or _HOT_WALLET_SIGNER_URL (docs/chains.md)`,
      );
    },

    tend: async (asked) => {
      await sameNetwork(asked);
      return payer ? payer.tend() : [];
    },

    async close() {
      await unwatch?.();
      await payer?.close?.();
    },
  };
}
