import { randomBytes } from 'node:crypto';
import { DEPOSIT_CONFIRMATIONS, type NetworkKey } from '../../../contracts/wallet.ts';
import type { Db, Queryable } from '../infra/db/db.ts';
import { Money } from '../ledger/money.ts';
import { chainNetworkOf } from '../wallets/networks.ts';
import { simulatedChainRepository } from './chain.repository.ts';
import { BroadcastRefused, type BroadcastRequest, type ChainAdapter, type ChainProgress } from './adapter.ts';
import { chainSentences } from './sentences.ts';
import { refuse } from '../sentences.ts';

/**
 * CHAIN_SOURCE=simulated (the default): one local chain per network, kept in the database (migration 015,
 * simulated_chain_heights and simulated_chain_transfers) so that every server process and every restart
 * sees the same chain. It behaves like a real one where the product can tell: a transfer is seen at once
 * (0 confirmations, like a mempool), gets a block when someone mines, and counts its confirmations from
 * that block; it accepts transfers to any valid address, known to the product or not.
 *
 * Besides the adapter's calls it has a driver, which POST /api/dev/chain/ uses: `deposit` (someone outside
 * pays an address) and `mine` (blocks pass).
 */
export interface SimulatedChain extends ChainAdapter {
  /** Someone outside sends `amount` of `ticker` (default: the network's own coin, or its only one) to `address`. */
  deposit(request: SimulatedDeposit): Promise<{ txid: string }>;
  /** `blocks` blocks pass on every network; every transfer still waiting gets the first of them. */
  mine(blocks: number): Promise<void>;
  /** Always able to say where the watcher stands: the chain is the database's. */
  progress(network: NetworkKey, cursor: string | null): Promise<ChainProgress>;
}

export interface SimulatedDeposit {
  network: NetworkKey;
  address: string;
  /** A positive decimal string. */
  amount: string;
  ticker?: string | undefined;
}

export interface SimulatedChainDeps {
  db: Db;
  now: () => Date;
}

/**
 * The coin each chain pays its own fees in. A deposit names no ticker most of the time, so it is this one
 * when the product carries it (BTC, ETH, LTC); on a chain whose own coin the product does not carry (tron's
 * TRX) it is the network's only coin (USDT).
 */
const NATIVE_ASSET: ReadonlyMap<NetworkKey, string> = new Map([
  ['bitcoin', 'BTC'],
  ['ethereum', 'ETH'],
  ['tron', 'TRX'],
  ['litecoin', 'LTC'],
]);

/** A transaction id is 32 bytes on every chain here; each network writes them its own way. */
const TXID_BYTES = 32;

const POSITIVE_DECIMAL = /^\d{1,20}(\.\d{1,18})?$/;
const isPositiveDecimal = (value: string) => POSITIVE_DECIMAL.test(value) && /[1-9]/.test(value);

/** The coins that travel on a network, by ticker, in the order they were added. */
async function coinsOn(db: Queryable, network: NetworkKey): Promise<Map<string, { decimalPlaces: number }>> {
  const rows = await simulatedChainRepository(db).coinsOn(network);
  return new Map(rows.map((row) => [row.ticker, { decimalPlaces: row.decimal_places }]));
}

/** The ticker a deposit pays in, or the refusal that says why there is none. */
function assetOf(network: NetworkKey, asked: string | undefined, carried: readonly string[]): string {
  if (carried.length === 0) throw refuse.noCoinsOnNetwork(network);
  if (asked !== undefined) {
    const ticker = asked.toUpperCase();
    if (!carried.includes(ticker)) throw refuse.unknownTicker(ticker, network, carried);
    return ticker;
  }
  const native = NATIVE_ASSET.get(network);
  if (native !== undefined && carried.includes(native)) return native;
  const [only] = carried;
  if (carried.length === 1 && only !== undefined) return only;
  throw refuse.tickerRequired(network, carried);
}

export function simulatedChain({ db, now }: SimulatedChainDeps): SimulatedChain {
  /** Adds one transfer to the chain, unmined; answers its txid. */
  const send = (transfer: { network: NetworkKey; asset: string; address: string; amount: string; reference: string | null }) =>
    db.transaction(async (tx) => {
      // Writers take turns (chain/chain.repository.ts simulatedChainRepository): the watcher's cursor never skips a row.
      const repository = simulatedChainRepository(tx);
      await repository.lockTransfers();
      if (transfer.reference !== null) {
        // Broadcast again (a watcher that crashed before storing the txid, or a second process): the same
        // transaction, nothing new on the chain.
        const sent = await repository.sentWith(transfer.reference);
        if (sent) return sent;
      }
      const chain = chainNetworkOf(transfer.network);
      if (!chain) throw new Error(`The simulated chain does not carry ${transfer.network}`);
      const txid = chain.txidOf(randomBytes(TXID_BYTES));
      await repository.insertTransfer({ ...transfer, txid, at: now() });
      return { txid };
    });

  return {
    name: 'simulated',
    // Its blocks are never re-organised: one confirmation is final (contract DEPOSIT_CONFIRMATIONS).
    confirmationsToCredit: () => DEPOSIT_CONFIRMATIONS,

    // Every address is on the one table the watcher reads: nothing to subscribe to.
    async watch() {},

    async incoming(network, cursor, limit) {
      if (cursor !== null && !/^\d+$/.test(cursor)) throw new Error(`The simulated chain cannot read from cursor ${cursor}`);
      const rows = await simulatedChainRepository(db).transfersAfter(network, cursor ?? '0', limit);
      const last = rows.at(-1);
      return {
        transfers: rows.map(({ txid, vout, asset, address, amount }) => ({ txid, vout, asset, address, amount })),
        cursor: last ? last.seq : cursor,
      };
    },

    async confirmations(network, txids) {
      if (txids.length === 0) return new Map();
      const rows = await simulatedChainRepository(db).confirmationsOf(network, txids);
      return new Map(rows.map((row) => [row.txid, Number(row.confirmations)]));
    },

    async broadcast(request: BroadcastRequest) {
      // A withdrawal sent before is answered with what was sent, whatever would be refused now (a network
      // delisted since): a refusal makes the watcher refund, so it must never follow a send.
      const earlier = await simulatedChainRepository(db).sentWith(request.reference);
      if (earlier) return earlier;
      // What a real node or signer refuses outright; the watcher cancels and refunds the withdrawal.
      if (chainNetworkOf(request.network)?.parseAddress(request.address) === undefined) {
        throw new BroadcastRefused(chainSentences.broadcastBadAddress(request.network));
      }
      if (!isPositiveDecimal(request.amount)) throw new BroadcastRefused(chainSentences.broadcastBadAmount(request.amount));
      if (!(await coinsOn(db, request.network)).has(request.asset)) {
        throw new BroadcastRefused(chainSentences.broadcastBadAsset(request.asset, request.network));
      }
      return send(request);
    },

    /**
     * The cursor is a transfer's sequence number, not a block: the last block read is the one below the first
     * mined block holding a transfer the watcher has not read, or the chain's height when it has read them all;
     * the lag counts transfers, not blocks (unknown under a cursor that is no sequence number).
     */
    async progress(network, cursor) {
      const readable = cursor === null || /^\d+$/.test(cursor);
      const row = await simulatedChainRepository(db).progress(network, readable ? (cursor ?? '0') : '0');
      const head = row.head === null ? 0 : Number(row.head);
      return { head, lastBlock: row.first_unread === null ? head : Number(row.first_unread) - 1, lag: readable ? Number(row.unread) : null };
    },

    async close() {},

    async deposit({ network, address, amount, ticker }) {
      const trimmed = address.trim();
      if (chainNetworkOf(network)?.parseAddress(trimmed) === undefined) throw refuse.invalidAddress(network);
      const coins = await coinsOn(db, network);
      const asset = assetOf(network, ticker?.trim(), [...coins.keys()]);
      const places = coins.get(asset)?.decimalPlaces ?? 0;
      const value = new Money(amount);
      if (value.decimalPlaces() > places) throw refuse.tooManyPlaces(asset, places);
      // The address as the sender wrote it (an ethereum address in lower case is the same account): the
      // watcher compares addresses in the network's canonical form, as it must for a real chain.
      return send({ network, asset, address: trimmed, amount: value.toFixed(), reference: null });
    },

    async mine(blocks) {
      if (!Number.isInteger(blocks) || blocks < 1) throw new Error(`Cannot mine ${blocks} blocks`);
      await db.transaction(async (tx) => {
        const repository = simulatedChainRepository(tx);
        await repository.lockTransfers();
        await repository.mine(blocks);
      });
    },
  };
}

/** Whether an adapter is the simulated chain, driver included. */
export const isSimulatedChain = (adapter: ChainAdapter): adapter is SimulatedChain =>
  adapter.name === 'simulated' && 'mine' in adapter && 'deposit' in adapter;
