import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { REDIS_URL } from './clients.ts';

/** A built-in realtime server in its own process (packages/realtime/tests/support/node.ts), sharing Redis with its peers. */
export interface RealtimeNode {
  port: number;
  process: ChildProcess;
  trigger(channels: string[], event: string, data: unknown, options?: { socketId?: string }): Promise<void>;
  occupied(channels: string[]): Promise<Set<string>>;
  /** `endSessions(ids, {everywhere: true})` on this node: answers how many of its own sockets it closed. */
  endSessions(ids: string[]): Promise<number>;
  /** A graceful close (what a deploy does). */
  close(): Promise<void>;
  /** A crash: SIGKILL, no clean-up of any kind. */
  kill(): Promise<void>;
}

/** A key prefix of its own per test run, so parallel runs on one Redis do not meet. */
export const testPrefix = () => `peerex:rt:test-${randomBytes(6).toString('hex')}:`;

export async function startNode(prefix: string, nodeTimeoutMs = 15_000): Promise<RealtimeNode> {
  const child = fork(new URL('./node.ts', import.meta.url).pathname, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, REDIS_URL, REALTIME_PREFIX: prefix, NODE_TIMEOUT_MS: String(nodeTimeoutMs) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message: { port: number }) => resolve(message.port));
    child.once('exit', (code) => reject(new Error(`realtime node exited with ${code} before it was ready`)));
  });

  let nextId = 0;
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  child.on('message', (message: { id?: number; result?: unknown; error?: string }) => {
    const waiter = message.id === undefined ? undefined : pending.get(message.id);
    if (!waiter) return;
    pending.delete(message.id!);
    if (message.error) waiter.reject(new Error(message.error));
    else waiter.resolve(message.result);
  });
  const call = (op: string, ...args: unknown[]) =>
    new Promise<unknown>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      child.send({ id, op, args });
    });

  return {
    port,
    process: child,
    trigger: async (channels, event, data, options) => void (await call('trigger', channels, event, data, options)),
    occupied: async (channels) => new Set((await call('occupied', channels)) as string[]),
    endSessions: async (ids) => (await call('endSessions', ids)) as number,
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      await call('close');
      await exited;
    },
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Deletes every key of a test prefix. */
export async function dropKeys(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

export async function keysOf(prefix: string): Promise<string[]> {
  const redis = new Redis(REDIS_URL);
  try {
    return await redis.keys(`${prefix}*`);
  } finally {
    redis.disconnect();
  }
}
