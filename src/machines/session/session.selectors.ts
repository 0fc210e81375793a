import type { SnapshotFrom } from 'xstate';
import type { sessionMachine } from './session.machine.ts';

type SessionSnapshot = SnapshotFrom<typeof sessionMachine>;

export const selectIsSignedIn = (snapshot: SessionSnapshot) => snapshot.matches('signedIn');
export const selectIsRestoring = (snapshot: SessionSnapshot) => snapshot.matches('restoring');
export const selectUser = (snapshot: SessionSnapshot) => snapshot.context.user;
export const selectToken = (snapshot: SessionSnapshot) => snapshot.context.token;
/** The avatar letter: the username's first letter in upper case, or "U" when there is no username. */
export const selectInitial = (snapshot: SessionSnapshot) =>
  snapshot.context.user?.username?.charAt(0).toUpperCase() || 'U';
/** The signed-in device's push registration actor (invoked by the session while signed in); undefined when signed out. */
export const selectPushRegistration = (snapshot: SessionSnapshot) => snapshot.children.pushRegistration;
