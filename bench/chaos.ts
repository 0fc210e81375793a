/**
 * Chaos (issue 14, "Faults"): CHAOS_CLIENTS (32) traders run trade round trips (open → mark paid → release,
 * every fourth one cancelled instead) and chat against two server processes (`server/src/main.ts`, real
 * child processes on two ports) over one PostgreSQL database and a Redis this script starts on a random port.
 * During CHAOS_SECONDS (90) one process or the other is SIGKILLed CHAOS_SERVER_KILLS (6) times at random
 * moments and started again on its port, and Redis is SIGKILLed once and started again, empty.
 *
 * Each client keeps its realtime socket (pusher-js: its user channel and its live trades' channels) and
 * retries what failed the way a real client must: a call that broke may or may not have been applied, so
 * it refetches first and sends again only what was not. Afterwards:
 *   - `ledger:check` is clean;
 *   - every acknowledged call (200) is in the database: each open exists, each mark paid / release / cancel
 *     reached its state, each chat message is stored;
 *   - nothing was applied twice: one journal entry per trade and movement, one copy of each message, no
 *     trade opened that its lane does not know;
 *   - every client's socket reconnected after each kill of its process, and what each client knows of each
 *     of its trades (answers, events, the refetch after each reconnect) equals the database;
 *   - no server process exited by itself, no call hung, every answer was the envelope.
 * Exits 1 on any violation.
 *
 * Run: node --import tsx bench/chaos.ts   (npm run bench:chaos)
 * Knobs: CHAOS_CLIENTS (32), CHAOS_SECONDS (90), CHAOS_SERVER_KILLS (6), CHAOS_REDIS_KILLS (1),
 * BENCH_DATABASE_URL (the PostgreSQL server to create the throwaway database on).
 */
import { availableParallelism, cpus, loadavg } from 'node:os';
import { runChaos, type ChaosReport } from './support/chaos-run.ts';

const options = {
  clients: Number(process.env.CHAOS_CLIENTS ?? 32),
  seconds: Number(process.env.CHAOS_SECONDS ?? 90),
  serverKills: Number(process.env.CHAOS_SERVER_KILLS ?? 6),
  redisKills: Number(process.env.CHAOS_REDIS_KILLS ?? 1),
};

export function formatChaosReport(report: ChaosReport): string {
  const rows: [string, string | number][] = [
    ['calls made', report.calls.made],
    ['  acknowledged (200)', report.calls.acknowledged],
    ['  failed (broken, 5xx)', report.calls.failed],
    ['  refused (4xx)', report.calls.refused],
    ['trips completed / cancelled', `${report.trips.completed} / ${report.trips.cancelled}`],
    ['chat messages acknowledged', report.messages],
    ['server SIGKILLs', report.kills.server],
    ['Redis SIGKILLs', report.kills.redis],
    ['socket reconnects', report.reconnects],
    ['subscriptions refused', report.refusedSubscriptions],
    ['refetches', report.refetches],
    ['realtime events received', report.events],
    ['checked: opens / actions / messages', `${report.checked.opens} / ${report.checked.actions} / ${report.checked.messages}`],
    ['checked: trades / client states', `${report.checked.trades} / ${report.checked.knownStates}`],
    ['violations', report.violations.length],
  ];
  return rows.map(([name, value]) => `${name.padEnd(38)} ${String(value).padStart(10)}`).join('\n');
}

console.log(
  `Machine: ${cpus()[0]?.model ?? 'unknown CPU'}, ${availableParallelism()} cores, Node ${process.version}; ${options.clients} clients, ${options.seconds} s, ${options.serverKills} server kills, ${options.redisKills} Redis kill(s)`,
);
const report = await runChaos({ ...options, log: (line) => console.log(line) });
console.log(`\n${formatChaosReport(report)}\n\nledger:check:\n${report.ledger}\nload average at the end ${loadavg()[0]?.toFixed(2)}`);
if (report.violations.length > 0) {
  console.log(`\n${report.violations.length} violation(s):`);
  for (const violation of report.violations.slice(0, 100)) console.log(`  - ${violation}`);
  console.log(`\n${report.diagnosis.join('\n')}\nServer logs: ${report.logs}`);
  process.exitCode = 1;
}
