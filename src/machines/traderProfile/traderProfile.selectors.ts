import type { SnapshotFrom } from 'xstate';
import { takeRefusals } from '../shared/rules.ts';
import type { traderProfileMachine } from './traderProfile.machine.ts';

type TraderProfileSnapshot = SnapshotFrom<typeof traderProfileMachine>;

/** loading: a spinner; loaded: the record; notFound: nobody by that name; error: "Try again". */
export const selectProfileView = (snapshot: TraderProfileSnapshot): 'loading' | 'loaded' | 'notFound' | 'error' =>
  snapshot.matches('loaded') ? 'loaded' : snapshot.matches('notFound') ? 'notFound' : snapshot.matches('error') ? 'error' : 'loading';
export const selectProfile = (snapshot: TraderProfileSnapshot) => snapshot.context.profile;
export const selectProfileUsername = (snapshot: TraderProfileSnapshot) => snapshot.context.username;
export const selectCanRetry = (snapshot: TraderProfileSnapshot) => snapshot.can({ type: 'profile.retry' });
/** For each of the profile's offers the trader may not take, why (shared/rules.ts `takeRefusals`). */
export const selectTakeRefusals = (snapshot: TraderProfileSnapshot): ReadonlyMap<number, string> =>
  takeRefusals(snapshot.context.profile?.offers ?? [], snapshot.context.standing, (offer) => snapshot.can({ type: 'offer.take', offer }));
