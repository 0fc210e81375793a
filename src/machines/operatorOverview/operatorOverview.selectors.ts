import type { SnapshotFrom } from 'xstate';
import type { OperatorOverview } from '../../../contracts/operator.ts';
import { waitedSince } from '../shared/waited.ts';
import type { operatorOverviewMachine } from './operatorOverview.machine.ts';

type OverviewSnapshot = SnapshotFrom<typeof operatorOverviewMachine>;
type Holding = OperatorOverview['networks'][number]['holdings'][number];

/** loading: a spinner; failed: a message and "Try again"; shown: the numbers (also while read again). */
export const selectOverviewView = (snapshot: OverviewSnapshot): 'loading' | 'failed' | 'shown' =>
  snapshot.context.overview ? 'shown' : snapshot.matches({ overview: 'failed' }) ? 'failed' : 'loading';
export const selectOverview = (snapshot: OverviewSnapshot) => snapshot.context.overview;
export const selectIsRefreshing = (snapshot: OverviewSnapshot) => snapshot.matches({ overview: 'refreshing' });
/** "Live" while the channel reaches the page, "Updated every minute" while it cannot, nothing while it connects. */
export const selectLiveness = (snapshot: OverviewSnapshot): 'live' | 'offline' | 'connecting' =>
  snapshot.matches({ connection: 'live' }) ? 'live' : snapshot.matches({ connection: 'offline' }) ? 'offline' : 'connecting';

/** "Waiting 2 h 14 min" for the oldest dispute on the page's clock, or null when none waits. */
export const selectOldestWait = (snapshot: OverviewSnapshot): string | null => {
  const since = snapshot.context.overview?.disputes.oldest_waiting_since;
  return since ? `Oldest waiting ${waitedSince(since, snapshot.context.now)}` : null;
};

/** A decimal string below zero (a shortfall): "-0.00000001", not "-0" nor "0.00". */
export const isNegative = (amount: string | null) => amount !== null && /^-/.test(amount.trim()) && /[1-9]/.test(amount);

export type HoldingRow = Holding & { network: string; networkName: string; shortfall: boolean };

/** Every coin on every network, with whether the chain side holds less than the ledger owes. */
export const selectHoldingRows = (snapshot: OverviewSnapshot): HoldingRow[] =>
  (snapshot.context.overview?.networks ?? []).flatMap((network) =>
    network.holdings.map((holding) => ({
      ...holding,
      network: network.network,
      networkName: network.name,
      shortfall: isNegative(holding.difference),
    })),
  );
/** Some network holds less than it owes: the card says so at its top. */
export const selectHasShortfall = (snapshot: OverviewSnapshot) => selectHoldingRows(snapshot).some((row) => row.shortfall);
