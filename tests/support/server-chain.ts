/** The simulated chain from a test: deposit addresses, deposits from outside, blocks, and withdrawals in flight. */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { expect } from 'vitest';
import type { BuiltInNetworkKey, NetworkKey } from '../../contracts/wallet.ts';
import type { BroadcastRequest, ChainAdapter } from '../../server/src/chain/adapter.ts';
import type { SimulatedChain } from '../../server/src/chain/simulated.ts';
import { balanceOf, postEntry, type AccountKind } from '../../server/src/ledger/ledger.ts';
import { Money } from '../../server/src/ledger/money.ts';
import { CHAIN_NETWORKS } from '../../server/src/wallets/networks.ts';
import type { CallOptions, TestApp } from './server.ts';
import { coinByTicker } from './server-money.ts';

/** A valid address of `network` whose key is nobody's on Peerex (its secret key is a digest of `seed`). */
export const outsider = (network: BuiltInNetworkKey, seed = 'outside') =>
  CHAIN_NETWORKS[network].addressOf(secp256k1.getPublicKey(sha256(new TextEncoder().encode(`${network}:${seed}`)), true));

/** POST /api/dev/chain/ as the developer's terminal sends it. */
export const devChain = <T = unknown>(t: TestApp, body: unknown, options: CallOptions = {}) => t.post<T>('/api/dev/chain/', body, options);

/** The trader's deposit address on a network, handed out by the product's own `addresses` service. */
export async function depositAddress(t: TestApp, userId: string, network: NetworkKey): Promise<string> {
  const entries = await t.app.wallets.addresses.entries(userId);
  const found = entries.flatMap((entry) => entry.networks).find((candidate) => candidate.key === network);
  if (!found) throw new Error(`No ${network} deposit address for user ${userId}`);
  return found.address;
}

/** Someone outside pays `amount` to `address` through the dev route (which records it at once); answers the txid. */
export async function depositOnChain(t: TestApp, network: NetworkKey, address: string, amount: string, ticker?: string): Promise<string> {
  const answer = await devChain<{ txid: string }>(t, { type: 'deposit', network, address, amount, ...(ticker ? { ticker } : {}) });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.info.txid;
}

/** `blocks` blocks pass through the dev route (which runs the watcher before and after). */
export async function mine(t: TestApp, blocks = 1): Promise<void> {
  const answer = await devChain<{ mined: number }>(t, { type: 'mine', blocks });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(answer.body.info).toEqual({ mined: blocks });
}

/** The simulated chain's driver of an app (it has one whenever CHAIN_SOURCE=simulated). */
export function driverOf(t: TestApp): SimulatedChain {
  const driver = t.app.chain.simulated;
  if (!driver) throw new Error('This app has no simulated chain');
  return driver;
}

export interface WalletRow {
  id: string;
  user_id: string;
  ticker: string;
  network: string;
  trans_type: 'deposit' | 'withdrawal';
  status: 'pending' | 'review' | 'completed' | 'cancelled';
  scope: string;
  amount_crypto: string;
  amount_usd: string;
  fee_crypto: string;
  address: string | null;
  txid: string | null;
  vout: number | null;
  credit_reference: string | null;
  broadcast_attempts: number;
  broadcast_error: string | null;
  completed_at: Date | null;
}

/** A user's wallet transactions, oldest first, amounts as stored. */
export const walletRows = (t: TestApp, userId: string) =>
  t.app.db.query<WalletRow>(
    `SELECT w.id, w.user_id, c.ticker, w.network, w.trans_type, w.status, w.scope, w.amount_crypto::text AS amount_crypto,
            w.amount_usd::text AS amount_usd, w.fee_crypto::text AS fee_crypto, w.address, w.txid, w.vout, w.credit_reference,
            w.broadcast_attempts, w.broadcast_error, w.completed_at
     FROM wallet_transactions w JOIN coins c ON c.id = w.coin_id WHERE w.user_id = $1 ORDER BY w.id`,
    [userId],
  );

/** An account's cached balance as a canonical decimal string ("0.01", not "0.01000000"), "0" when it does not exist. */
export async function held(t: TestApp, ticker: string, kind: AccountKind, userId?: string): Promise<string> {
  const { id: coinId } = await coinByTicker(t.app.db, ticker);
  const ref =
    kind === 'available' || kind === 'escrow' || kind === 'withdrawing'
      ? { kind, coinId, userId: userId ?? '' }
      : { kind, coinId };
  return new Money(await balanceOf(t.app.db, ref)).toFixed();
}

/** How many ledger entries carry this reference (0 or 1: references are unique). */
export async function entriesNamed(t: TestApp, reference: string): Promise<number> {
  const { count } = await t.app.db.one<{ count: number }>('SELECT count(*)::integer AS count FROM ledger_entries WHERE reference = $1', [reference]);
  return count;
}

/**
 * A confirmed external withdrawal, as `confirm_withdrawal` leaves it (migration 015): the pending row and its
 * `withdrawal:<id>:hold` entry (available → withdrawing), in one transaction. The user must hold `amount`.
 */
export async function pendingWithdrawal(
  t: TestApp,
  withdrawal: { userId: string; ticker: string; network: NetworkKey; address: string; amount: string; fee: string },
): Promise<string> {
  const coin = await coinByTicker(t.app.db, withdrawal.ticker);
  return t.app.db.transaction(async (tx) => {
    const { id } = await tx.one<{ id: string }>(
      `INSERT INTO wallet_transactions (user_id, coin_id, network, trans_type, status, scope, amount_crypto, amount_usd,
                                        fee_crypto, fee_usd, address, created_at)
       VALUES ($1, $2, $3, 'withdrawal', 'pending', 'external', $4, round($4::numeric * $5::numeric, 2), $6, round($6::numeric * $5::numeric, 2), $7, now())
       RETURNING id`,
      [withdrawal.userId, coin.id, withdrawal.network, withdrawal.amount, coin.usd_price, withdrawal.fee, withdrawal.address],
    );
    await postEntry(tx, {
      reference: `withdrawal:${id}:hold`,
      at: new Date(),
      postings: [
        { account: { kind: 'available', userId: withdrawal.userId, coinId: coin.id }, amount: new Money(withdrawal.amount).neg() },
        { account: { kind: 'withdrawing', userId: withdrawal.userId, coinId: coin.id }, amount: withdrawal.amount },
      ],
    });
    return id;
  });
}

/** What a wrapped chain does instead of the simulated one; each gets the app's own simulated chain to delegate to. */
export interface ChainOverrides {
  broadcast?: (request: BroadcastRequest, chain: SimulatedChain) => Promise<{ txid: string }>;
  incoming?: (network: NetworkKey, cursor: string | null, limit: number, chain: SimulatedChain) => ReturnType<ChainAdapter['incoming']>;
}

/**
 * An adapter for `createTestApp({ chainAdapter })` that is the app's own simulated chain except where
 * `overrides` say (a chain that refuses, a node that is down). Bind it to the app once the app is built.
 */
export function wrappedChain(overrides: ChainOverrides) {
  let chain: SimulatedChain | undefined;
  const inner = () => {
    if (!chain) throw new Error('wrappedChain: bind it to its app first');
    return chain;
  };
  const adapter: ChainAdapter = {
    name: 'simulated',
    confirmationsToCredit: (network) => inner().confirmationsToCredit(network),
    watch: (network, address) => inner().watch(network, address),
    incoming: (network, cursor, limit) =>
      overrides.incoming ? overrides.incoming(network, cursor, limit, inner()) : inner().incoming(network, cursor, limit),
    confirmations: (network, txids) => inner().confirmations(network, txids),
    broadcast: (request) => (overrides.broadcast ? overrides.broadcast(request, inner()) : inner().broadcast(request)),
    close: async () => undefined,
  };
  return {
    adapter,
    bind(t: TestApp) {
      chain = driverOf(t);
    },
  };
}
