import type { NetworkKey } from '../../../contracts/wallet.ts';

/**
 * Where deposits are seen and withdrawals are sent, as prices have their feed (prices/adapters.ts). The
 * chain watcher (chain/watcher.ts) asks its adapter, on each round and per network, what arrived, how
 * many confirmations the pending transactions have, and sends the withdrawals waiting for broadcast.
 * Everything the product decides (who owns an address, the 5 USD minimum, crediting exactly once through
 * the ledger) is the watcher's; an adapter only reports the chain and broadcasts.
 *
 * `simulated` (the default) is a local chain kept in the database (chain/simulated.ts). A real node or
 * indexer adapter (bitcoind, an Esplora or Blockbook instance, a Tron or Ethereum RPC with a token
 * indexer) implements the same five calls; since the server holds no spending key, its `broadcast` hands
 * the withdrawal to the operator's signer (a custody API or a signing service).
 */
export interface ChainAdapter {
  /** CHAIN_SOURCE's name, or `evm` and the names of a routed adapter (chain/routed.ts). */
  readonly name: string;
  /** How many confirmations credit a deposit on this network (the simulated chain: 1; an EVM network: its configuration). */
  confirmationsToCredit(network: NetworkKey): number;
  /**
   * Called once when a deposit address is handed out, so an adapter that watches addresses (an indexer
   * subscription) starts watching it. Must be idempotent; the simulated chain sees every address anyway.
   */
  watch(network: NetworkKey, address: string): Promise<void>;
  /**
   * The transfers that reached the chain after `cursor` (null: from the adapter's beginning), at most
   * `limit` of them in the chain's order, and the cursor to pass next time (the same one when nothing is
   * new). Transfers to addresses the product does not know may be included; the watcher ignores them.
   */
  incoming(network: NetworkKey, cursor: string | null, limit: number): Promise<IncomingPage>;
  /**
   * How many confirmations each of these transactions has now: 0 while in the mempool. A txid the chain
   * no longer knows (dropped, or re-organised away) is left out of the answer.
   */
  confirmations(network: NetworkKey, txids: readonly string[]): Promise<Map<string, number>>;
  /**
   * Sends `amount` of `asset` to `address`. Idempotent on `reference` (the withdrawal's): asked again, it
   * answers the same txid and sends nothing more, so a watcher that crashed after the broadcast and before
   * it stored the txid cannot pay twice. Throws `BroadcastRefused` when the chain will never take it (the
   * withdrawal is then cancelled and refunded), which must mean that nothing was or will be sent under
   * this reference: an adapter answers an earlier send's txid before it checks anything that could refuse.
   * Any other error is retried on a later round.
   */
  broadcast(request: BroadcastRequest): Promise<{ txid: string }>;
  /**
   * Optional housekeeping once per round and network, after the broadcasts: send again what the node lost,
   * replace a transaction stuck under a low fee at the same nonce. Answers each broadcast whose transaction
   * id changed (a replacement sent, or an earlier attempt the chain mined instead), so the watcher follows
   * the transaction that will be confirmed. A broadcast that went wrong past fixing by itself carries its
   * `problem` (mined but reverted; its nonce taken by a transaction from outside), answered on every round
   * until an operator acts: the watcher never completes it and writes the operator a chain incident.
   */
  tend?(network: NetworkKey): Promise<TendedBroadcast[]>;
  /**
   * Where the watcher stands on the network against its chain, in one reading for the operator's overview and
   * for monitoring (docs/operators.md "The overview", "Monitoring"): the last block its `cursor` covers (null:
   * nothing read yet), the chain's newest block, and how far the chain runs ahead of the cursor. Reads only; it
   * may ask the node, so only the chain service calls it (chain/chain.plugin.ts `progress`), which keeps a
   * reading a few seconds for all its readers. Optional: an adapter without it reports none of them.
   */
  progress?(network: NetworkKey, cursor: string | null): Promise<ChainProgress>;
  /** Releases connections or timers, if the adapter holds any. */
  close(): Promise<void>;
}

/** ChainAdapter.progress: block heights, and the lag; each null when unknown. */
export interface ChainProgress {
  lastBlock: number | null;
  head: number | null;
  /**
   * How far the chain runs ahead of the cursor, in the adapter's own unit: blocks above it on an EVM node (before
   * anything was read, above the block the watcher starts after), transfers after it on the simulated chain; 0
   * when the watcher is level with the chain.
   */
  lag: number | null;
}

/** A broadcast whose transaction changed or went wrong (ChainAdapter.tend). */
export interface TendedBroadcast {
  reference: string;
  txid: string;
  problem?: 'reverted' | 'nonce-taken';
}

/** A page of `incoming`. */
export interface IncomingPage {
  transfers: IncomingTransfer[];
  cursor: string | null;
  /**
   * Set when the adapter found the chain re-organised under its cursor (a stored block hash the node no
   * longer has): every block above `height` is gone. The watcher drops the pending deposits recorded in
   * them (the chain may bring them back in a new block: they are read again from `cursor`) and reports a
   * credited one to the operator. `cursor` then points at the last block both chains share.
   */
  rewound?: { height: number };
}

/** One output (or token transfer) of a transaction, paying `amount` of `asset` (a coin's ticker) to `address`. */
export interface IncomingTransfer {
  txid: string;
  /** The output index (bitcoin-like) or log index (token transfers) within the transaction. */
  vout: number;
  asset: string;
  address: string;
  /** An exact decimal string in the coin's units, never a float. */
  amount: string;
  /** The height of the block that holds it, where the chain has blocks that can be re-organised away. */
  block?: number;
}

export interface BroadcastRequest {
  /** `withdrawal:<id>`: unique per withdrawal. */
  reference: string;
  network: NetworkKey;
  asset: string;
  address: string;
  /** What the recipient receives (the withdrawal's amount less its network fee), an exact decimal string. */
  amount: string;
}

/**
 * The chain cannot take this withdrawal yet and only an operator can change that (the hot wallet is short of
 * the coin or of gas, no hot wallet is configured): the withdrawal keeps waiting, is never refunded for it,
 * and the watcher tells the operator (log at error, a chain incident) once per withdrawal and reason.
 */
export class BroadcastWaiting extends Error {
  override name = 'BroadcastWaiting';
}

/** The chain will never accept this withdrawal (an invalid address for it, an unsupported asset). */
export class BroadcastRefused extends Error {
  override name = 'BroadcastRefused';
}

/**
 * The names CHAIN_SOURCE accepts. A real adapter adds its name here and its factory in chain/adapters.ts;
 * any other value fails at boot (config.ts) with the list of valid names.
 */
export const CHAIN_SOURCE_NAMES = ['simulated'] as const;
export type ChainSourceName = (typeof CHAIN_SOURCE_NAMES)[number];
