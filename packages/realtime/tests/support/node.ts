/**
 * One built-in realtime server in a process of its own, for packages/realtime/tests/scale.test.ts:
 * `fork('packages/realtime/tests/support/node.ts', { execArgv: ['--import', 'tsx'] })` with REDIS_URL, REALTIME_PREFIX and
 * NODE_TIMEOUT_MS in its environment. It says `{ready, port}`, then answers `{id, op, args}` messages
 * (`trigger`, `occupied`, `endSessions` everywhere, `close`) with `{id, result}` or `{id, error}`.
 */
import { startRealtime } from './clients.ts';

const server = await startRealtime({
  redisUrl: process.env.REDIS_URL,
  redisPrefix: process.env.REALTIME_PREFIX,
  nodeTimeoutMs: Number(process.env.NODE_TIMEOUT_MS ?? 15_000),
});
process.send!({ ready: true, port: server.port });

type Request = { id: number; op: 'trigger' | 'occupied' | 'endSessions' | 'close'; args: unknown[] };

process.on('message', async ({ id, op, args }: Request) => {
  try {
    if (op === 'trigger') {
      const [channels, event, data, options] = args as [string[], string, unknown, { socketId?: string } | undefined];
      await server.realtime.trigger(channels, event, data, options);
      process.send!({ id, result: null });
    } else if (op === 'occupied') {
      process.send!({ id, result: [...(await server.realtime.occupied(args[0] as string[]))] });
    } else if (op === 'endSessions') {
      process.send!({ id, result: server.realtime.endSessions(args[0] as string[], { everywhere: true }) });
    } else {
      await server.close();
      process.send!({ id, result: null }, () => process.exit(0));
    }
  } catch (error) {
    process.send!({ id, error: String(error) });
  }
});

// The test process went away: do not outlive it.
process.on('disconnect', () => void server.close().finally(() => process.exit(0)));
