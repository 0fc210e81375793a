import type { SnapshotFrom } from 'xstate';
import type { signInHistoryMachine } from './signInHistory.machine.ts';

type SignInHistorySnapshot = SnapshotFrom<typeof signInHistoryMachine>;

/** 'loading' only before the first list: a refresh keeps the list on screen. */
export const selectView = (snapshot: SignInHistorySnapshot): 'loading' | 'unavailable' | 'list' => {
  if (snapshot.matches('unavailable')) return 'unavailable';
  if (snapshot.matches('loading') && snapshot.context.sessions.length === 0) return 'loading';
  return 'list';
};
export const selectSessions = (snapshot: SignInHistorySnapshot) => snapshot.context.sessions;
export const selectMessage = (snapshot: SignInHistorySnapshot) => snapshot.context.message;
export const selectIsBusy = (snapshot: SignInHistorySnapshot) => snapshot.hasTag('busy');
export const selectIsDialogOpen = (snapshot: SignInHistorySnapshot) => snapshot.hasTag('open');
export const selectCanSignOutOthers = (snapshot: SignInHistorySnapshot) => snapshot.can({ type: 'signOutOthers.start' });
export const selectCanConfirm = (snapshot: SignInHistorySnapshot) => snapshot.can({ type: 'signOutOthers.confirm' });
