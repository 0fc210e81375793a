import type { Db } from '../infra/db/db.ts';
import type { ChainAdapter, ChainSourceName } from './adapter.ts';
import { simulatedChain } from './simulated.ts';

/** What an adapter may be built with: the simulated chain lives in the database; a real one brings its own connection. */
export interface ChainAdapterOptions {
  db: Db;
  now: () => Date;
}

/**
 * CHAIN_SOURCE name → its adapter, as prices/adapters.ts has them for PRICE_SOURCE. A real node or indexer
 * adds its name to CHAIN_SOURCE_NAMES (chain/adapter.ts) and its factory here.
 */
export const CHAIN_ADAPTERS: Record<ChainSourceName, (options: ChainAdapterOptions) => ChainAdapter> = {
  simulated: (options) => simulatedChain(options),
};
