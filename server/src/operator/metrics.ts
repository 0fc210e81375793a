import { createHash, timingSafeEqual } from 'node:crypto';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics, prometheusContentType } from 'prom-client';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { ChainLag } from '../chain/chain.plugin.ts';
import type { PoolCounts } from '../infra/db/db.ts';
import { isDirectLocalRequest } from '../infra/http/client-address.ts';
import { TRADE_OUTCOMES, type TradeOutcome } from '../trades/trades.ts';
import { WITHDRAWAL_OUTCOMES, type WithdrawalOutcome } from '../wallets/withdrawals.ts';
import { refuse } from '../sentences.ts';

/**
 * GET /metrics for the operator's Prometheus (docs/operators.md "Monitoring"): this app's own registry (tests
 * build many apps in one process, and each counts only its own requests and trades), answered together with
 * the process's default metrics, which are collected once per process into a registry of their own: they
 * describe the process, not an app, and prom-client's collectors (a GC observer, an event-loop delay monitor)
 * run until the process ends, so one set per app would pile up in a test run.
 */

/** Prometheus text format 0.0.4, as prom-client writes it: `text/plain; version=0.0.4; charset=utf-8`. */
export const METRICS_CONTENT_TYPE = prometheusContentType;

/** The longest a scrape waits for a chain node's head (docs/operators.md "Monitoring"); Prometheus gives a scrape 10 s. */
export const CHAIN_LAG_TIMEOUT_MS = 2_000;

let processRegistry: Registry | undefined;
/** The process's CPU, memory, event loop, GC and handles (prom-client's default metrics), registered on first use. */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** What the gauges read at each scrape, from the services that hold the numbers. */
export interface MetricSources {
  /** Open websockets and their channels, in this process; undefined with hosted Pusher. */
  realtime(): { connections: number; channels: number } | undefined;
  /** Per watched network, blocks the watcher has not read yet (chain/chain.plugin.ts `lag`). */
  chainLag(timeoutMs: number): Promise<ChainLag[]>;
  /** The web push outbox not delivered yet. */
  pushQueue(): Promise<{ publishes: number; deliveries: number }>;
  /** PostgreSQL's pool; undefined on PGlite. */
  pool(): PoolCounts | undefined;
  log: { warn(obj: object, msg: string): void };
}

/** The request's route as registered (`/api/market/chat/:channel/`), never its URL; a request no route took: `(none)`. */
const routeOf = (request: FastifyRequest) => request.routeOptions.url ?? '(none)';

export function appMetrics(sources: MetricSources) {
  const registry = new Registry();
  const registers = [registry];

  /**
   * A labelled gauge read at the scrape, its last scrape's series dropped first: a source that fails leaves the
   * gauge out of this scrape (never the last scrape's numbers, nor the whole answer failing).
   */
  const readAtScrape = <T>(name: string, read: () => Promise<T>, write: (value: T) => void) =>
    async function collect(this: { reset(): void }) {
      this.reset();
      try {
        write(await read());
      } catch (error) {
        sources.log.warn({ err: error, metric: name }, 'metrics: a source did not answer; left out of this scrape');
      }
    };

  const requests = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from a request arriving to its answer sent, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers,
  });

  const trades = new Counter({
    name: 'peerex_trades_total',
    help: 'Trades opened, and trade changes by outcome (completed, cancelled, expired, disputed, settled by a moderator), since this process started.',
    labelNames: ['outcome'] as const,
    registers,
  });
  const withdrawals = new Counter({
    name: 'peerex_withdrawals_total',
    help: 'Withdrawals confirmed by their trader, completed (an internal transfer at once, an external one when the chain confirms it) and refunded (the chain refused it), since this process started.',
    labelNames: ['outcome'] as const,
    registers,
  });
  // Every outcome from the start, at 0, so rate() and increase() see a series before its first event.
  for (const outcome of TRADE_OUTCOMES) trades.inc({ outcome }, 0);
  for (const outcome of WITHDRAWAL_OUTCOMES) withdrawals.inc({ outcome }, 0);

  // Both chain gauges come from one question to each node per scrape: the registry collects its metrics at once,
  // so the second to ask joins the first's answer.
  let asking: Promise<ChainLag[]> | undefined;
  const chainLag = () => {
    asking ??= sources.chainLag(CHAIN_LAG_TIMEOUT_MS).finally(() => {
      asking = undefined;
    });
    return asking;
  };
  const lag = new Gauge({
    name: 'peerex_chain_watcher_lag',
    help: 'Blocks the chain node holds above the chain watcher\'s cursor, per network (the simulated chain: transfers not read yet).',
    labelNames: ['network'] as const,
    registers,
    collect: readAtScrape('peerex_chain_watcher_lag', chainLag, (lines) => {
      for (const { network, behind } of lines) if (behind !== undefined) lag.set({ network }, behind);
    }),
  });
  const reachable = new Gauge({
    name: 'peerex_chain_node_up',
    help: `1 when the network's chain answered for its head within ${CHAIN_LAG_TIMEOUT_MS / 1000} s at this scrape, else 0 (its lag is then left out).`,
    labelNames: ['network'] as const,
    registers,
    collect: readAtScrape('peerex_chain_node_up', chainLag, (lines) => {
      for (const { network, behind } of lines) reachable.set({ network }, behind === undefined ? 0 : 1);
    }),
  });

  const pushQueue = new Gauge({
    name: 'peerex_push_queue_depth',
    help: 'Web push outbox rows not delivered yet, every process\'s: publishes to expand into deliveries, deliveries to send (retries included).',
    labelNames: ['stage'] as const,
    registers,
    collect: readAtScrape('peerex_push_queue_depth', () => sources.pushQueue(), ({ publishes, deliveries }) => {
      pushQueue.set({ stage: 'publish' }, publishes);
      pushQueue.set({ stage: 'delivery' }, deliveries);
    }),
  });

  /**
   * The gauges of what this deployment has: the built-in realtime server's sockets (not with hosted Pusher) and
   * PostgreSQL's pool (not on PGlite). Added once the app is built, when the services can say.
   */
  function addDeploymentGauges() {
    if (sources.realtime() !== undefined) {
      new Gauge({
        name: 'peerex_realtime_connections',
        help: 'Open websockets of the built-in realtime server in this process.',
        registers,
        collect() {
          this.set(sources.realtime()?.connections ?? 0);
        },
      });
      new Gauge({
        name: 'peerex_realtime_channels',
        help: 'Channels at least one websocket of this process subscribes to.',
        registers,
        collect() {
          this.set(sources.realtime()?.channels ?? 0);
        },
      });
    }
    const pool = sources.pool();
    if (pool !== undefined) {
      const poolGauge = (name: string, help: string, read: (counts: PoolCounts) => number) =>
        new Gauge({
          name,
          help,
          registers,
          collect() {
            const counts = sources.pool();
            if (counts) this.set(read(counts));
          },
        });
      poolGauge('peerex_db_pool_connections', 'PostgreSQL connections this process\'s pool holds open.', (counts) => counts.total);
      poolGauge('peerex_db_pool_idle', 'Open PostgreSQL connections of the pool not in use.', (counts) => counts.idle);
      poolGauge('peerex_db_pool_waiting', 'Queries waiting for a PostgreSQL connection of the pool.', (counts) => counts.waiting);
    }
  }

  return {
    registry,
    addDeploymentGauges,
    /** One answered request, by its route pattern. */
    observe(request: FastifyRequest, status: number, seconds: number) {
      requests.observe({ method: request.method, route: routeOf(request), status: String(status) }, seconds);
    },
    trade: (outcome: TradeOutcome) => trades.inc({ outcome }),
    withdrawal: (outcome: WithdrawalOutcome) => withdrawals.inc({ outcome }),
    /** The answer of GET /metrics: this app's metrics and the process's. */
    text: () => Registry.merge([processMetrics(), registry]).metrics(),
  };
}
export type AppMetrics = ReturnType<typeof appMetrics>;

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * Who may read GET /metrics (docs/operators.md "Monitoring"). With METRICS_TOKEN: whoever sends it as the bearer
 * token, from this machine too, compared in constant time (both hashed first, so neither length nor content
 * shows in the timing). Without it: only a request straight from this machine, its socket on loopback and no
 * proxy header (a local reverse proxy passing on a request from anywhere adds one), and never while TRUST_PROXY
 * is set, since a proxy of ours then stands in front and its requests all come from where it runs.
 * Throws the refusal (401); the hook adds `WWW-Authenticate`.
 */
export function metricsAccess(config: Pick<Config, 'metricsToken' | 'trustProxy'>): (request: FastifyRequest) => void {
  const expected = config.metricsToken === undefined ? undefined : digest(config.metricsToken);
  return (request) => {
    if (expected) {
      const presented = BEARER.exec(request.headers.authorization ?? '')?.[1];
      if (presented === undefined || !timingSafeEqual(digest(presented), expected)) throw refuse.metricsTokenRefused();
      return;
    }
    if (config.trustProxy.kind !== 'none' || !isDirectLocalRequest(request)) throw refuse.metricsTokenRequired();
  };
}
