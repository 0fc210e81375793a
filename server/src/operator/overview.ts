import { z } from 'zod/mini';
import { OPERATORS_CHANNEL, operatorEvents, operatorOverview, type OperatorOverview } from '../../../contracts/operator.ts';
import type { ChainProgress } from '../chain/adapter.ts';
import type { EvmNetworkConfig } from '../chain/evm/config.ts';
import type { CoinReconciliation, ReconcileDeps } from '../chain/reconcile.ts';
import type { Db } from '../infra/db/db.ts';
import { Money, fixed } from '../ledger/money.ts';
import { EXPORT_BATCH, keysetBatches } from '../audit/audit-log.ts';
import { overviewRepository, type OverviewTimes } from './overview.repository.ts';

/** The fee export's columns, in order. */
export const FEES_CSV_HEADER = ['date', 'coin', 'amount', 'reference', 'trade'] as const;

const DAY_MS = 24 * 60 * 60 * 1000;

export interface OperatorOverviewDeps {
  db: Db;
  /** Where the watcher stands on a network against its chain (chain/chain.plugin.ts `progress`); undefined: cannot tell. */
  progress: (network: string) => Promise<ChainProgress | undefined>;
  /** EVM_NETWORKS: the networks whose holdings are read from their node (chain/reconcile.ts). */
  evmNetworks: readonly EvmNetworkConfig[];
  now: () => Date;
  /** WITHDRAWAL_REVIEW_USD, a decimal string (0: review off). */
  reviewThresholdUsd: string;
  publish: (channel: string, event: string, data: unknown) => void;
  /** Replaces the node clients of the holdings' reconciliation (tests). */
  clientOf?: ReconcileDeps['clientOf'];
  log?: { warn(obj: object, msg?: string): void };
}

/** A network's holdings as last read (the holdings job), and where the watcher stood when last asked (the live job). */
interface ChainReads {
  progress: Map<string, ChainProgress>;
  holdings: { at: Date; coins: CoinReconciliation[] } | undefined;
}

/** A decimal written with at least the coin's places, and every further place a chain reading has: exact. */
function atLeastPlaces(value: string, places: number): string {
  const money = new Money(value);
  return money.decimalPlaces() > places ? money.toFixed() : fixed(value, places);
}

/** The instants the counts start from, midnight UTC being the day's start. */
function timesAt(now: Date): OverviewTimes {
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  return {
    today,
    day: new Date(now.getTime() - DAY_MS),
    week: new Date(now.getTime() - 7 * DAY_MS),
  };
}

/** What changes an overview apart from the time it was made and when the holdings were read: what a live publish compares. */
const numbersOf = (overview: OperatorOverview) =>
  JSON.stringify({
    ...overview,
    generated_at: undefined,
    networks: overview.networks.map((network) => ({
      ...network,
      read_at: undefined,
    })),
  });

/**
 * The operator's overview (docs/operators.md "The overview"; POST /api/operator/overview/): the platform at a
 * glance, from the database each time, except what needs a node: where the watcher stands against the chain's
 * head (`refreshProgress`, on the live job) and what the chains hold (`refreshHoldings`, on its own slower job,
 * because reading every deposit address's balance from a node is the expensive part). A request never asks a node.
 * `tick` is the live job's: it publishes the overview on `private-operators` when a number changed.
 */
export function operatorOverviewService(deps: OperatorOverviewDeps) {
  const { db } = deps;
  const reads: ChainReads = { progress: new Map(), holdings: undefined };
  let lastPublished: string | undefined;

  function holdingsOf(network: string) {
    const coins = reads.holdings?.coins ?? [];
    return coins
      .filter((coin) => coin.holdings.some((holding) => holding.network === network) || coin.unread.includes(network))
      .map((coin) => {
        const source = coin.holdings.find((holding) => holding.network === network)?.source ?? 'chain';
        const decimalPlaces = coin.places;
        return {
          ticker: coin.ticker,
          decimal_places: decimalPlaces,
          owed: fixed(coin.owed.total, decimalPlaces),
          held: coin.held === undefined ? null : atLeastPlaces(coin.held, decimalPlaces),
          difference: coin.difference === undefined ? null : atLeastPlaces(coin.difference, decimalPlaces),
          source,
        };
      });
  }

  async function overview(): Promise<OperatorOverview> {
    const now = deps.now();
    const times = timesAt(now);
    const repository = overviewRepository(db);
    const traders = await repository.traders(times);
    const trades = await repository.trades(times);
    const fees = await repository.feeIncome(times);
    const networks = await repository.networks();
    const push = await repository.pushQueue();
    const reviewsWaiting = await repository.reviewsWaiting();
    return z.parse(operatorOverview, {
      generated_at: now.toISOString(),
      traders,
      trades: {
        open: trades.open,
        disputed: trades.disputed,
        today: {
          opened: trades.opened_today,
          completed: trades.completed_today,
          cancelled: trades.cancelled_today,
          disputed: trades.disputed_today,
        },
        week: {
          opened: trades.opened_week,
          completed: trades.completed_week,
          cancelled: trades.cancelled_week,
          disputed: trades.disputed_week,
        },
      },
      disputes: {
        waiting: trades.disputed,
        oldest_waiting_since: trades.oldest_dispute?.toISOString() ?? null,
      },
      fees: fees.map((fee) => ({
        ticker: fee.ticker,
        decimal_places: fee.decimal_places,
        today: fixed(fee.today, fee.decimal_places),
        week: fixed(fee.week, fee.decimal_places),
        all_time: fixed(fee.all_time, fee.decimal_places),
      })),
      networks: networks.map((row) => {
        const progress = reads.progress.get(row.network);
        const lastBlock = progress?.lastBlock ?? null;
        const head = progress?.head ?? null;
        return {
          network: row.network,
          name: row.name,
          last_block: lastBlock,
          head,
          lag_blocks: lastBlock === null || head === null ? null : Math.max(0, head - lastBlock),
          last_round_at: row.last_round_at?.toISOString() ?? null,
          open_incidents: row.open_incidents,
          holdings: holdingsOf(row.network),
          read_at: reads.holdings?.at.toISOString() ?? null,
        };
      }),
      push_queue: {
        depth: push.depth,
        oldest: push.oldest?.toISOString() ?? null,
      },
      reviews: {
        waiting: reviewsWaiting,
        threshold_usd: deps.reviewThresholdUsd,
      },
    });
  }

  /** Asks the chain where the watcher stands on each network (a node's head: one light call each, shared with GET /metrics). */
  async function refreshProgress(): Promise<void> {
    for (const row of await overviewRepository(db).networks()) {
      try {
        const progress = await deps.progress(row.network);
        if (progress) reads.progress.set(row.network, progress);
      } catch (error) {
        // A node that does not answer keeps its last reading; the watcher's own round reports the node.
        deps.log?.warn({ network: row.network, err: error }, 'operator overview: the chain did not say its head');
      }
    }
  }

  /**
   * What the ledger owes against what the chain side holds, per coin (chain/reconcile.ts): every deposit
   * address's balance from the nodes of EVM_NETWORKS, the records elsewhere. Kept until the next refresh.
   */
  async function refreshHoldings(): Promise<void> {
    // With the EVM stack it reads through (viem): loaded at the first refresh, after the start, not during it.
    const { reconcileChains } = await import('../chain/reconcile.ts');
    const report = await reconcileChains({
      db,
      networks: deps.evmNetworks,
      everyCoin: true,
      now: deps.now,
      ...(deps.clientOf ? { clientOf: deps.clientOf } : {}),
    });
    reads.holdings = { at: report.at, coins: report.coins };
  }

  return {
    overview,

    /**
     * The fee CSV's records (GET /api/operator/fees.csv): one per posting into a `fees` account within the range,
     * oldest first, its amount exact to the coin's places, read in keyset batches.
     */
    feeRecords(range: { from?: Date; to?: Date }): AsyncIterable<(string | null)[][]> {
      return keysetBatches(
        (after) => overviewRepository(db).feePostings(range, after, EXPORT_BATCH),
        (row) => [row.at.toISOString(), row.ticker, fixed(row.amount, row.decimal_places), row.reference, row.channel],
      );
    },
    refreshProgress,

    refreshHoldings,

    /**
     * The live job's tick: the chains' progress (and their holdings, the first time: that job's first run is a
     * period away), then the overview, published when a number changed. Answers whether it published.
     */
    async tick(): Promise<boolean> {
      await refreshProgress();
      if (!reads.holdings) {
        await refreshHoldings().catch((error: unknown) => deps.log?.warn({ err: error }, 'operator overview: the holdings could not be read'));
      }
      const current = await overview();
      const numbers = numbersOf(current);
      if (numbers === lastPublished) return false;
      deps.publish(OPERATORS_CHANNEL, operatorEvents.overview, current);
      lastPublished = numbers;
      return true;
    },
  };
}

export type OperatorOverviewService = ReturnType<typeof operatorOverviewService>;
