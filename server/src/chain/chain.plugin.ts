import type { NetworkKey } from '../../../contracts/wallet.ts';
import type { ChainAdapter, ChainProgress } from './adapter.ts';
import { CHAIN_ADAPTERS } from './adapters.ts';
import { routedChain } from './routed.ts';
import { isSimulatedChain, simulatedChain, type SimulatedChain } from './simulated.ts';
import { chainWatcher } from './watcher.ts';
import type { FastifyInstance } from 'fastify';
import { oneAtATime, stopBeforeTheDatabase, type JobSpec } from '../infra/jobs.ts';
import { shared } from '../infra/shared.ts';

/** What one watcher round did, for the dev driver's answer, the logs and the tests. */
export interface ChainSyncReport {
  /** Deposits newly recorded (pending, or cancelled below the minimum). */
  seen: number;
  /** Deposits credited through the ledger. */
  credited: number;
  /** Pending deposits dropped because a re-organisation removed their blocks. */
  dropped: number;
  /** Withdrawals handed to the chain. */
  broadcast: number;
  /** Withdrawals the chain confirmed. */
  completed: number;
  /** Withdrawals the chain refused, refunded. */
  refunded: number;
}

/** The chain side of the wallets: the adapter CHAIN_SOURCE names and the watcher that works through it. */
export interface ChainService {
  readonly adapter: ChainAdapter;
  /**
   * With CHAIN_SOURCE=simulated, the local chain's driver (deposit, mine) for POST /api/dev/chain/; the
   * chain lives in the database, so it is the chain the adapter reads even when a test wraps the adapter.
   */
  readonly simulated: SimulatedChain | undefined;
  /** One watcher round now, over every network; safe to run in several processes at once. */
  sync(): Promise<ChainSyncReport>;
  /** Asks for a round soon (coalesced with one already due): after a withdrawal is confirmed. */
  kick(): void;
  /** Waits for a running round. */
  stop(): Promise<void>;
  /**
   * Where the watcher stands on the network against its chain (ChainAdapter.progress, from its stored cursor), for
   * the operator's overview and GET /metrics alike: read from the chain at most once every
   * CHAIN_PROGRESS_FRESH_MS per network while the cursor stays put, so a scrape and the overview's job share one
   * question to a node. Undefined when the adapter cannot tell; rejects when the chain failed.
   */
  progress(network: NetworkKey): Promise<ChainProgress | undefined>;
  /**
   * Per watched network, the lag of its `progress` (GET /metrics), each network asked at once and given
   * `timeoutMs`: `behind` undefined when its chain failed or did not answer in time. A network whose adapter
   * cannot tell is left out.
   */
  lag(timeoutMs: number): Promise<ChainLag[]>;
}

/** How long a network's `progress` is kept: a few seconds, less than a scrape's or the overview's period. */
export const CHAIN_PROGRESS_FRESH_MS = 5_000;

/** One network's line of ChainService.lag: blocks (the simulated chain: transfers) not read yet. */
export interface ChainLag {
  network: NetworkKey;
  behind: number | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    chain: ChainService;
  }
}

export interface ChainPluginOptions extends Record<string, unknown> {
  /** Replaces the adapter CHAIN_SOURCE names (tests: a chain that refuses or fails broadcasts). */
  adapter?: ChainAdapter;
}

/** How long a kick waits before its round: the kicks of a burst of withdrawals share one round. */
export const KICK_DELAY_MS = 200;

const isBusy = (report: ChainSyncReport) => Object.values(report).some((count) => count > 0);

/**
 * The adapters of EVM_NETWORKS (chain/evm/networks.ts). The EVM stack (viem) is loaded only when a network is
 * configured: evaluating it was about a tenth of a second of every start's CPU time (bench/README.md "Restart to ready").
 */
async function evmNetworks(app: FastifyInstance, onBlock: () => void): Promise<Map<NetworkKey, ChainAdapter>> {
  if (app.config.evmNetworks.length === 0) return new Map();
  const { openEvmNetworks } = await import('./evm/networks.ts');
  return openEvmNetworks(app, onBlock);
}

/** The job that runs the watcher's rounds (chainWatcherJob). */
export const CHAIN_WATCHER_JOB = 'chain watcher';

/**
 * Tier 3: the chain adapter and its watcher (chain/watcher.ts); chainWatcherJob runs its rounds. Rounds never
 * overlap in one process; across processes they need no coordination (see the watcher).
 */
export const chainPlugin = shared<ChainPluginOptions>('peerex-chain', async (app, { adapter: injected }) => {
  const options = { db: app.db, now: app.now };
  const kick = () => app.jobs.kick(CHAIN_WATCHER_JOB, KICK_DELAY_MS);
  const adapter = injected ?? routedChain(CHAIN_ADAPTERS[app.config.chainSource](options), await evmNetworks(app, kick));
  // The simulated chain is its tables, so a driver of its own reaches the same chain a wrapping adapter reads.
  const simulated = isSimulatedChain(adapter) ? adapter : app.config.chainSource === 'simulated' ? simulatedChain(options) : undefined;
  const watcher = chainWatcher({
    db: app.db,
    adapter,
    now: app.now,
    log: app.log,
    announce: (rows) => app.notifications.announce(rows),
    settled: (outcome) => app.metrics.withdrawal(outcome),
    walletChanged: (userIds) => app.notifications.walletChanged(userIds),
  });

  const rounds = oneAtATime(() => watcher.round());
  let queued: Promise<ChainSyncReport> | undefined;
  /**
   * A round that starts after this call: the caller's own writes (a deposit just made) are in it. While a
   * round runs, one more is queued behind it, and every caller meanwhile joins that one: it has not
   * started yet, so it sees their writes too.
   */
  const sync = (): Promise<ChainSyncReport> => {
    if (queued) return queued;
    const running = rounds.current();
    if (!running) return rounds.run();
    const next = running
      .catch(() => undefined)
      .then(() => {
        queued = undefined;
        return rounds.run();
      });
    queued = next;
    return next;
  };

  const stop = async () => {
    await Promise.allSettled([rounds.current(), queued]);
  };

  /** Each network's last reading: the cursor it was read from, when (the app's clock), and the chain's answer. */
  const readings = new Map<NetworkKey, { cursor: string | null; at: number; progress: Promise<ChainProgress | undefined> }>();
  const progress = async (network: NetworkKey): Promise<ChainProgress | undefined> => {
    if (!adapter.progress) return undefined;
    const cursor = await watcher.cursorOf(network);
    const at = app.now().getTime();
    const kept = readings.get(network);
    if (kept && kept.cursor === cursor && at >= kept.at && at - kept.at < CHAIN_PROGRESS_FRESH_MS) return kept.progress;
    const reading = { cursor, at, progress: adapter.progress(network, cursor) };
    readings.set(network, reading);
    // A chain that failed is asked again by the next reader, not answered with its failure.
    reading.progress.catch(() => {
      if (readings.get(network) === reading) readings.delete(network);
    });
    return reading.progress;
  };

  /** A node that hangs must not hold a scrape: past the time it is counted as not answering, and left to finish. */
  const lagOf = async (network: NetworkKey, timeoutMs: number): Promise<ChainLag | undefined> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), timeoutMs);
    });
    try {
      const reading = await Promise.race([progress(network), late]);
      if (reading === 'late') return { network, behind: undefined };
      return reading === undefined || reading.lag === null ? undefined : { network, behind: reading.lag };
    } catch (error) {
      app.log.debug({ err: error, network }, 'chain lag unknown: the chain did not answer');
      return { network, behind: undefined };
    } finally {
      clearTimeout(timer);
    }
  };

  app.decorate('chain', {
    adapter,
    simulated,
    sync,
    kick,
    stop,
    progress,
    async lag(timeoutMs) {
      const lines = await Promise.all((await watcher.networks()).map((network) => lagOf(network, timeoutMs)));
      return lines.filter((line): line is ChainLag => line !== undefined);
    },
  } satisfies ChainService);

  stopBeforeTheDatabase(app, stop, () => adapter.close());
});

/**
 * The watcher's rounds, every CHAIN_POLL_SECONDS once the app is ready and soon after a kick (0: no timer and
 * no kicks, only `sync()` by hand, as the tests do); app.ts lists it.
 */
export const chainWatcherJob = (app: FastifyInstance): JobSpec<ChainSyncReport> => ({
  name: CHAIN_WATCHER_JOB,
  everyMs: app.config.chainPollSeconds * 1000,
  tick: () => app.chain.sync(),
  report(report, log) {
    if (isBusy(report)) log.info({ ...report, source: app.chain.adapter.name }, 'chain watcher round');
  },
});
