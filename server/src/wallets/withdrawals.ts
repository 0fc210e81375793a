import type { WithdrawalAsk, WithdrawalPreview } from '../../../contracts/wallet.ts';
import type { Db } from '../db/db.ts';
import { Unavailable } from '../refusals.ts';

export interface WithdrawalsDeps {
  db: Db;
  now: () => Date;
  /** Called after a confirmed external withdrawal commits: the chain watcher broadcasts it soon (ChainService.kick). */
  dispatched: () => void;
}

/** `preview_withdrawal` and `confirm_withdrawal` (contract.md "Wallets"). PLACEHOLDER: being built (issue 11). */
export function withdrawals(_deps: WithdrawalsDeps) {
  return {
    async preview(_userId: string, _ask: WithdrawalAsk): Promise<WithdrawalPreview> {
      throw new Unavailable('Withdrawals are not built yet.');
    },
    /** Executes the caller's kept preview exactly once; answers the sentence the web app shows. */
    async confirm(_userId: string): Promise<string> {
      throw new Unavailable('Withdrawals are not built yet.');
    },
  };
}
export type Withdrawals = ReturnType<typeof withdrawals>;
