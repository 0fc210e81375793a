import type { NetworkKey, WalletAddressEntry } from '../../../contracts/wallet.ts';
import type { Db } from '../db/db.ts';
import { Unavailable } from '../refusals.ts';
import type { WalletKeys } from './keys.ts';

export interface DepositAddressesDeps {
  db: Db;
  keys: WalletKeys;
  now: () => Date;
  /** Tells the chain adapter to watch a newly handed-out address (ChainAdapter.watch), after its commit. */
  watch: (network: NetworkKey, address: string) => Promise<void>;
}

/** The traders' own deposit addresses (contract.md "Wallets"). PLACEHOLDER: being built (issue 11). */
export function depositAddresses(_deps: DepositAddressesDeps) {
  return {
    /** `addresses`: one entry per coin with the caller's address on each of its networks, allocated on first ask. */
    async entries(_userId: string): Promise<WalletAddressEntry[]> {
      throw new Unavailable('Deposit addresses are not built yet.');
    },
  };
}
export type DepositAddresses = ReturnType<typeof depositAddresses>;
