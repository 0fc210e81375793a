import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { passwordConfirmMachine } from './passwordConfirm.machine.ts';

type PasswordConfirmSnapshot = SnapshotFrom<typeof passwordConfirmMachine>;
export type PasswordConfirmRef = ActorRefFrom<typeof passwordConfirmMachine>;

export const selectPassword = (snapshot: PasswordConfirmSnapshot) => snapshot.context.password;
export const selectIsBusy = (snapshot: PasswordConfirmSnapshot) => snapshot.hasTag('busy');
export const selectCanSubmit = (snapshot: PasswordConfirmSnapshot) => snapshot.can({ type: 'form.submit' });

/** The password confirmation a chart invoked as its child `id`, while the state that asks for it is active. */
export const passwordConfirmOf = (snapshot: { children: Record<string, unknown> }, id: string): PasswordConfirmRef | undefined =>
  snapshot.children[id] as PasswordConfirmRef | undefined;
