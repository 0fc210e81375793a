import type { SnapshotFrom } from 'xstate';
import { shownAddress, type depositMachine } from './deposit.machine.ts';

type DepositSnapshot = SnapshotFrom<typeof depositMachine>;

export const selectIsLoading = (snapshot: DepositSnapshot) => snapshot.hasTag('busy');
/** Every coin the trader can deposit, with its networks and the trader's address on each. */
export const selectEntries = (snapshot: DepositSnapshot) => snapshot.context.entries;
/** The chosen coin's entry, or undefined before one is chosen. */
export const selectEntry = (snapshot: DepositSnapshot) =>
  snapshot.context.ticker === null ? undefined : snapshot.context.entries.find((entry) => entry.coin.ticker === snapshot.context.ticker);
/** The network selector shows only for a coin on more than one network. */
export const selectNeedsNetworkChoice = (snapshot: DepositSnapshot) => (selectEntry(snapshot)?.networks.length ?? 0) > 1;
/** The chosen network of the chosen coin (name, image, key, address). */
export const selectNetwork = (snapshot: DepositSnapshot) =>
  selectEntry(snapshot)?.networks.find((network) => network.key === snapshot.context.network);
/** The prompt "Select a cryptocurrency": no coin chosen yet. */
export const selectShowsPrompt = (snapshot: DepositSnapshot) =>
  !snapshot.matches({ ready: { selection: 'pickingNetwork' } }) && !snapshot.matches({ ready: { selection: 'showing' } });
/** A coin with more than one network is chosen, its network not yet. */
export const selectIsPickingNetwork = (snapshot: DepositSnapshot) => snapshot.matches({ ready: { selection: 'pickingNetwork' } });
/** The address, QR code and details show. */
export const selectAddress = (snapshot: DepositSnapshot) =>
  snapshot.matches({ ready: { selection: 'showing' } }) ? shownAddress(snapshot.context) : null;
export const selectCanCopy = (snapshot: DepositSnapshot) => snapshot.can({ type: 'address.copy' });
