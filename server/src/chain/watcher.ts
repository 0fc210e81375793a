import type { NetworkKey } from '../../../contracts/wallet.ts';
import type { Db } from '../infra/db/db.ts';
import { transactionWithRetry } from '../infra/db/retry.ts';
import { postEntry, type PostingInput } from '../ledger/ledger.ts';
import { Money, fixed } from '../ledger/money.ts';
import { notify, type Notified } from '../notifications/notify.ts';
import { operatorTexts, walletTexts } from '../notifications/texts.ts';
import { usersRepository } from '../accounts/users.repository.ts';
import type { ChainSyncReport } from './chain.plugin.ts';
import { chainDeposits } from '../wallets/deposits.ts';
import { chainNetworkOf } from '../wallets/networks.ts';
import { BroadcastRefused, BroadcastWaiting, type ChainAdapter } from './adapter.ts';
import { withdrawalReferences } from '../wallets/withdrawals.ts';
import { chainRepository, type ChainIncidentKind, type WatchedWithdrawal } from './chain.repository.ts';

/**
 * The chain watcher: one round reads what the chain adapter reports, network by network, and turns it into
 * the wallets' rows and ledger entries (docs/rules.md "Wallets", migration 015):
 *   (a) new transfers to deposit addresses become deposits (wallets/deposits.ts), and the network's cursor
 *       moves past them;
 *   (b) deposits with the network's confirmations (adapter.confirmationsToCredit) are credited; a
 *       re-organisation the adapter reports drops the pending deposits it removed;
 *   (c) external withdrawals waiting for their broadcast are handed to the chain;
 *   (d) broadcast withdrawals the chain confirmed are completed: `withdrawing` → the platform's `withdrawals`.
 *
 * Safe with several server processes by construction: rows are inserted idempotently, every status change
 * is guarded by the status it leaves and made in the same transaction as its ledger entry, ledger references
 * are unique, broadcasts are idempotent on the withdrawal's reference and the cursor only moves by
 * compare-and-set. No database transaction is ever open across an adapter call: on PGlite a transaction
 * holds the only connection and the simulated chain queries the same database, and on PostgreSQL a slow
 * node would hold row locks for as long as it takes.
 */
export interface ChainLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface ChainWatcherDeps {
  db: Db;
  adapter: ChainAdapter;
  now: () => Date;
  log: ChainLog;
  /**
   * After a deposit's credit or a withdrawal's completion committed: its notification, live and to the push
   * worker (never throws). A watcher built without it still writes the notifications; nobody is told live.
   */
  announce?: (rows: readonly Notified[]) => Promise<void>;
  /** After a withdrawal's settlement committed: `completed` (the chain confirmed it) or `refunded` (GET /metrics). */
  settled?: (outcome: 'completed' | 'refunded') => void;
  /**
   * After a change to traders' balances or wallet history committed (a deposit recorded, credited or dropped, a
   * withdrawal broadcast or settled): `wallet` on their channels (never throws). Without it nobody is told live.
   */
  walletChanged?: (userIds: readonly string[]) => Promise<void>;
}

/** Transfers asked of the adapter at a time; a round keeps asking while pages come back full. */
export const INCOMING_PAGE = 500;
/** A withdrawal is done once its transaction is in a block: the chain has taken it. */
export const WITHDRAWAL_CONFIRMATIONS = 1;
/** The longest broadcast error kept on the row: a node may answer a whole HTML page. */
const BROADCAST_ERROR_LENGTH = 500;

const emptyReport = (): ChainSyncReport => ({ seen: 0, credited: 0, dropped: 0, broadcast: 0, completed: 0, refunded: 0 });

export function chainWatcher({ db, adapter, now, log, announce = async () => {}, settled: counted = () => {}, walletChanged = async () => {} }: ChainWatcherDeps) {
  const deposits = chainDeposits({ db, now, log, announce, walletChanged });
  const repository = chainRepository(db);
  const unknownNetworks = new Set<string>();

  /** The networks coins travel on, as coin_networks names them, that this server knows how to watch. */
  async function networks(): Promise<NetworkKey[]> {
    const known: NetworkKey[] = [];
    for (const key of await repository.networkKeys()) {
      if (chainNetworkOf(key)) known.push(key);
      else if (!unknownNetworks.has(key)) {
        // An operator added a network that is neither built in nor in EVM_NETWORKS: say so once per process.
        unknownNetworks.add(key);
        log.warn({ network: key }, 'coin_networks names a network the chain watcher does not know: not watched');
      }
    }
    return known;
  }

  /**
   * Writes an incident down for the operators: the first time, logged at error and every operator notified, in
   * the incident's own transaction (docs/operators.md "Notifications"). Answers whether it is new.
   */
  async function incident(network: NetworkKey, kind: ChainIncidentKind, subject: string, detail: string, fields: object = {}) {
    const at = now();
    const notified = await db.transaction(async (tx) => {
      if (!(await chainRepository(tx).reportIncident({ network, kind, subject, detail, at }))) return undefined;
      const operators = await usersRepository(tx).idsOfRole('operator');
      return notify(tx, operators.map((id) => operatorTexts.chainIncident(id, network, kind, detail)), at);
    });
    if (!notified) return false;
    log.error({ network, incident: kind, subject, ...fields }, detail);
    await announce(notified);
    return true;
  }

  /**
   * The adapter found the blocks above `height` re-organised away: the cursor goes back to the last block both
   * chains share and, in the same transaction (only if this process moved it), the pending deposits recorded
   * above it are dropped; the chain may bring them back in a new block, and reading on from the cursor then
   * records them again. A credited deposit up there that the chain no longer holds is the operator's to look at.
   */
  async function rewind(network: NetworkKey, from: string | null, cursor: string | null, height: number, report: ChainSyncReport) {
    if (cursor === null) return false;
    const dropped = await db.transaction(async (tx) => {
      const inTx = chainRepository(tx);
      if (!(await inTx.moveCursor(network, from, cursor))) return undefined;
      return inTx.dropDepositsAbove(network, height);
    });
    if (dropped === undefined) return false;
    report.dropped += dropped.length;
    await walletChanged(dropped.map((row) => row.user_id));
    if (dropped.length > 0) log.warn({ network, height, deposits: dropped.map((row) => row.id) }, 'chain re-organised: pending deposits above the shared block dropped');
    const credited = await repository.creditedDepositsAbove(network, height);
    if (credited.length > 0) {
      const still = await adapter.confirmations(network, [...new Set(credited.map((row) => row.txid))]);
      for (const row of credited.filter((deposit) => !still.has(deposit.txid))) {
        await incident(
          network,
          'credited_deposit_reorganised',
          row.credit_reference,
          `a credited deposit (${row.amount_crypto} ${row.ticker}, transaction ${row.txid}) was in a block the chain re-organised away and is not in the chain now: ` +
            'the ledger owes it, the chain may not hold it (npm run chain:reconcile)',
          { deposit: row.id, txid: row.txid },
        );
      }
    }
    return true;
  }

  /** (a) Reads the chain from the stored cursor, records deposits, moves the cursor on, while it has more. */
  async function readIncoming(network: NetworkKey, report: ChainSyncReport) {
    for (;;) {
      const from = await repository.cursorOf(network);
      const page = await adapter.incoming(network, from, INCOMING_PAGE);
      if (page.rewound) {
        if (await rewind(network, from, page.cursor, page.rewound.height, report)) continue;
        return;
      }
      report.seen += await deposits.record(network, page.transfers);
      if (page.cursor === from || page.cursor === null) return;
      // Compare-and-set: when another process moved the cursor meanwhile, it read these transfers too (the
      // rows above were idempotent) and is ahead or level; this round leaves the rest of the chain to it.
      if (!(await repository.moveCursor(network, from, page.cursor))) return;
    }
  }

  /** (b) Credits the deposits the chain has confirmed enough (the network's own count: adapter.confirmationsToCredit). */
  async function creditConfirmed(network: NetworkKey, report: ChainSyncReport) {
    const pending = await deposits.pending(network);
    if (pending.length === 0) return;
    const needed = adapter.confirmationsToCredit(network);
    const confirmations = await adapter.confirmations(network, [...new Set(pending.map((row) => row.txid))]);
    for (const row of pending) {
      // A txid the chain no longer knows (dropped, re-organised away) stays pending until it comes back.
      if ((confirmations.get(row.txid) ?? 0) < needed) continue;
      if (await deposits.credit(row.id)) report.credited += 1;
    }
  }

  /**
   * Ends a pending withdrawal with its ledger entry (and, when sent, its owner's notification), in one
   * transaction guarded by the status it leaves:
   * `sent` when the chain confirmed it, `refund` when the chain refused it. Answers whether this call did it.
   * Locks: the withdrawal's row (its status change), then the ledger's balances (server/src/ledger/README.md "Lock order").
   */
  const settle = async (row: WatchedWithdrawal, outcome: 'sent' | 'refund', error?: string): Promise<boolean> => {
    const notified = await transactionWithRetry(db, async (tx) => {
      const at = now();
      const settled = chainRepository(tx);
      // Only while no txid is stored may it be cancelled: a withdrawal the chain took once is never refunded.
      const changed = outcome === 'sent' ? await settled.completeWithdrawal(row.id, at) : await settled.cancelWithdrawal(row.id, error ?? null);
      if (!changed) return undefined;
      const withdrawing: PostingInput = {
        account: { kind: 'withdrawing', userId: row.user_id, coinId: row.coin_id },
        amount: new Money(row.amount_crypto).neg(),
      };
      const to: PostingInput =
        outcome === 'sent'
          ? { account: { kind: 'withdrawals', coinId: row.coin_id }, amount: row.amount_crypto }
          : { account: { kind: 'available', userId: row.user_id, coinId: row.coin_id }, amount: row.amount_crypto };
      await postEntry(tx, { reference: withdrawalReferences[outcome](row.id), at, postings: [withdrawing, to] });
      if (outcome === 'refund') return [];
      return notify(tx, [walletTexts.withdrawalCompleted(row.user_id, fixed(row.amount_crypto, row.decimal_places), row.ticker, row.network, row.address)], at);
    });
    if (!notified) return false;
    counted(outcome === 'sent' ? 'completed' : 'refunded');
    await announce(notified);
    await walletChanged([row.user_id]);
    return true;
  };

  /** (c) Hands the withdrawals waiting for their broadcast to the chain, one by one. */
  async function broadcastWaiting(network: NetworkKey, report: ChainSyncReport) {
    for (const row of await repository.pendingWithdrawals(network, false)) {
      let txid: string;
      try {
        ({ txid } = await adapter.broadcast({
          reference: withdrawalReferences.broadcast(row.id),
          network,
          asset: row.ticker,
          address: row.address,
          // The network fee is deducted from the amount: the recipient receives amount − fee.
          amount: new Money(row.amount_crypto).minus(row.fee_crypto).toFixed(),
        }));
      } catch (error) {
        const reason = (error instanceof Error ? error.message : String(error)).slice(0, BROADCAST_ERROR_LENGTH);
        if (error instanceof BroadcastWaiting) {
          // Only an operator can unblock it (fund the hot wallet, configure one): told once, kept waiting, never refunded.
          await repository.recordBroadcastFailure(row.id, reason);
          await incident(network, 'hot_wallet_short', withdrawalReferences.broadcast(row.id), `withdrawal ${row.id} waits: ${reason}`, { withdrawal: row.id });
        } else if (error instanceof BroadcastRefused) {
          if (await settle(row, 'refund', reason)) {
            report.refunded += 1;
            log.warn({ network, withdrawal: row.id, reason }, 'withdrawal refused by the chain: cancelled and refunded');
          }
        } else {
          // The node is down, a timeout: nothing was decided, so the next round tries again.
          await repository.recordBroadcastFailure(row.id, reason);
          log.warn({ network, withdrawal: row.id, err: error }, 'withdrawal broadcast failed: retried next round');
        }
        continue;
      }
      if (await repository.storeTxid(row.id, txid)) {
        report.broadcast += 1;
        // Its history row shows the transaction id from now on.
        await walletChanged([row.user_id]);
        continue;
      }
      // Another process stored this broadcast's txid first (the same one: broadcasts are idempotent), or
      // refunded the withdrawal, which an adapter that keeps its contract (no refusal after a send) makes
      // impossible; if it happened anyway, money left twice and an operator must see it.
      const now = await repository.withdrawalState(row.id);
      if (now?.status === 'cancelled') {
        log.error({ network, withdrawal: row.id, txid }, 'a refunded withdrawal was also sent on the chain: reconcile it by hand');
      }
    }
  }

  /**
   * (c') The adapter's housekeeping (resend, replace a stuck transaction): a broadcast whose transaction id
   * changed is followed under its new one, so (d) asks the chain about the transaction that will be mined.
   */
  async function tend(network: NetworkKey) {
    if (!adapter.tend) return;
    const changed = await adapter.tend(network);
    if (changed.length === 0) return;
    const byReference = new Map((await repository.pendingWithdrawals(network, true)).map((row) => [withdrawalReferences.broadcast(row.id), row]));
    for (const { reference, txid, problem } of changed) {
      const row = byReference.get(reference);
      if (problem) {
        const detail =
          problem === 'reverted'
            ? `withdrawal ${row?.id ?? reference}: its transaction ${txid} was mined but reverted; nothing was paid and it is not refunded: pay or refund it by hand`
            : `withdrawal ${row?.id ?? reference}: a transaction from outside the server took its nonce; it was not paid: check the hot wallet, then pay or refund it by hand`;
        await incident(network, problem === 'reverted' ? 'withdrawal_reverted' : 'withdrawal_nonce_taken', reference, detail, { txid });
        continue;
      }
      if (row && row.txid !== txid && (await repository.followTxid(row.id, txid))) {
        await walletChanged([row.user_id]);
        log.info({ network, withdrawal: row.id, from: row.txid, to: txid }, 'withdrawal now followed under its replacement transaction');
      }
    }
  }

  /** (d) Completes the broadcast withdrawals the chain has confirmed. */
  async function completeConfirmed(network: NetworkKey, report: ChainSyncReport) {
    const sent = await repository.pendingWithdrawals(network, true);
    if (sent.length === 0) return;
    const confirmations = await adapter.confirmations(network, [...new Set(sent.map((row) => row.txid ?? ''))]);
    for (const row of sent) {
      if ((confirmations.get(row.txid ?? '') ?? 0) < WITHDRAWAL_CONFIRMATIONS) continue;
      if (await settle(row, 'sent')) report.completed += 1;
    }
  }

  return {
    /** The networks a round watches. */
    networks,

    /** The network's stored cursor: where the last round left off (null: nothing read yet). */
    cursorOf: (network: NetworkKey) => repository.cursorOf(network),

    /**
     * One round over every network. A network that fails (its node is down) does not hold up the others;
     * the round then rejects, naming the networks that failed, after the rest are done.
     */
    async round(): Promise<ChainSyncReport> {
      const report = emptyReport();
      const failures: { network: NetworkKey; error: unknown }[] = [];
      const finished: NetworkKey[] = [];
      for (const network of await networks()) {
        try {
          await readIncoming(network, report);
          await creditConfirmed(network, report);
          await broadcastWaiting(network, report);
          await tend(network);
          await completeConfirmed(network, report);
          finished.push(network);
        } catch (error) {
          if (error instanceof Error && error.name === 'ReorganisationTooDeep') {
            await incident(network, 'reorganisation_too_deep', network, error.message).catch(() => undefined);
          }
          failures.push({ network, error });
        }
      }
      // The operator's overview shows when each network last had a round (docs/operators.md "The overview").
      if (finished.length > 0) await repository.roundsFinished(finished, now());
      if (failures.length > 0) {
        throw new AggregateError(
          failures.map((failure) => failure.error),
          `chain watcher round failed on ${failures.map((failure) => failure.network).join(', ')}`,
        );
      }
      return report;
    },
  };
}
export type ChainWatcher = ReturnType<typeof chainWatcher>;
