import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import { messages } from '../../../contracts/messages.ts';
import type { codeEntryMachine } from './codeEntry.machine.ts';

type CodeEntrySnapshot = SnapshotFrom<typeof codeEntryMachine>;

export const selectCode = (snapshot: CodeEntrySnapshot) => snapshot.context.code;
/** Six digits are there: a screen whose only field is the code enables its button on this. */
export const selectIsComplete = (snapshot: CodeEntrySnapshot) => snapshot.hasTag('complete');
/** The code's validation message, once a submit with fewer than six digits revealed it. */
export const selectError = (snapshot: CodeEntrySnapshot) =>
  snapshot.context.revealed && !snapshot.hasTag('complete') ? messages.invalidCode : undefined;

export type CodeEntryRef = ActorRefFrom<typeof codeEntryMachine>;

/** The code entry a flow's chart invoked (its child `codeEntry`), while the state that asks for a code is active. */
export const codeEntryOf = (snapshot: { children: Record<string, unknown> }): CodeEntryRef | undefined =>
  snapshot.children.codeEntry as CodeEntryRef | undefined;
