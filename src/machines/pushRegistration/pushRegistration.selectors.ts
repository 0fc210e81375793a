import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { pushRegistrationMachine } from './pushRegistration.machine.ts';

type PushRegistrationSnapshot = SnapshotFrom<typeof pushRegistrationMachine>;
export type PushRegistrationRef = ActorRefFrom<typeof pushRegistrationMachine>;

/** What /settings shows: the four states (docs/web-app.md "Web push registration"), the moments in between, and unsupported browsers. */
export type PushView =
  | 'checking'
  | 'promptRequired'
  | 'askingPermission'
  | 'registering'
  | 'registered'
  | 'notRegistered'
  | 'denied'
  | 'unsupported';

export const selectPushView = (snapshot: PushRegistrationSnapshot): PushView => snapshot.value as PushView;
/** The button helps only where pressing it can change something: a prompt to show, a registration to retry. */
export const selectCanEnable = (snapshot: PushRegistrationSnapshot) => snapshot.can({ type: 'push.enable' });
export const selectIsBusy = (snapshot: PushRegistrationSnapshot) => snapshot.hasTag('busy');
export const selectFailure = (snapshot: PushRegistrationSnapshot) => snapshot.context.failure;
export const selectUsername = (snapshot: PushRegistrationSnapshot) => snapshot.context.username;
