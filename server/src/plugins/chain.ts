import type { ChainAdapter } from '../chain/adapter.ts';
import { shared } from './shared.ts';

/** What one watcher round did, for the dev driver's answer, the logs and the tests. */
export interface ChainSyncReport {
  /** Deposits newly recorded (pending, or cancelled below the minimum). */
  seen: number;
  /** Deposits credited through the ledger. */
  credited: number;
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
  /** One watcher round now, over every network; safe to run in several processes at once. */
  sync(): Promise<ChainSyncReport>;
  /** Asks for a round soon (coalesced with one already due): after a withdrawal is confirmed. */
  kick(): void;
  /** Stops the timer and waits for a running round. */
  stop(): Promise<void>;
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

/** Tier 3: the chain adapter and its watcher. PLACEHOLDER: being built (issue 11). */
export const chainPlugin = shared<ChainPluginOptions>('peerex-chain', async (app, { adapter }) => {
  const notBuilt = async (): Promise<never> => {
    throw new Error('The chain watcher is not built yet.');
  };
  const placeholder: ChainAdapter = {
    name: 'simulated',
    watch: async () => undefined,
    incoming: notBuilt,
    confirmations: notBuilt,
    broadcast: notBuilt,
    close: async () => undefined,
  };
  app.decorate('chain', { adapter: adapter ?? placeholder, sync: notBuilt, kick: () => undefined, stop: async () => undefined });
});
