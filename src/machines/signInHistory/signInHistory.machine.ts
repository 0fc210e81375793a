import { assign, setup } from 'xstate';
import type { SignInEntry, SignInHistory, SignOutOthersResponse } from '../../../contracts/account-protections.ts';
import { readingStatus, unreadable } from '../shared/securityCard.ts';
import { unboundPromise } from '../shared/unbound.ts';

export type SignInHistoryContext = {
  /** The account's sign-ins as the server listed them, newest first. */
  sessions: SignInEntry[];
  /** The server's sentence after "Sign out everywhere else", shown above the refreshed list until the next one. */
  message: string | null;
};
export type SignInHistoryEvent =
  | { type: 'signOutOthers.start' }
  | { type: 'signOutOthers.confirm' }
  | { type: 'dialog.dismiss' }
  | { type: 'history.retry' };

/** The sign-in history on /settings/security, and "Sign out everywhere else" behind a confirmation. */
export const signInHistoryMachine = setup({
  types: { context: {} as SignInHistoryContext, events: {} as SignInHistoryEvent },
  actors: {
    loadHistory: unboundPromise<SignInHistory>('loadHistory'),
    signOutOthers: unboundPromise<SignOutOthersResponse>('signOutOthers'),
  },
  actions: {
    keepSessions: assign((_, params: { sessions: SignInEntry[] }) => ({ sessions: params.sessions })),
    keepMessage: assign((_, params: { message: string }) => ({ message: params.message })),
  },
  guards: {
    /** Another browser or device is still signed in: only then is there anything to sign out. */
    hasOtherActiveSessions: ({ context }) => context.sessions.some((entry) => entry.active && !entry.current),
  },
}).createMachine({
  id: 'signInHistory',
  description:
    'Where and when the account was signed in (this browser marked), and ending every other session at once after a confirmation.',
  context: { sessions: [], message: null },
  initial: 'loading',
  states: {
    loading: readingStatus(
      'loadHistory',
      { target: 'listing', actions: { type: 'keepSessions', params: ({ event }: { event: { output: SignInHistory } }) => event.output } },
      'Reading the history; after a sign-out the list shown until the answer is the one from before.',
    ),
    unavailable: unreadable('The history', 'history.retry'),
    listing: {
      description: 'The list shows; "Sign out everywhere else" is offered while another session is active.',
      on: { 'signOutOthers.start': { guard: 'hasOtherActiveSessions', target: 'confirming' } },
    },
    confirming: {
      tags: ['open'],
      description: 'The dialog asks whether every other browser and device should be signed out.',
      on: {
        'signOutOthers.confirm': { target: 'signingOut' },
        'dialog.dismiss': { target: 'listing' },
      },
    },
    signingOut: {
      tags: ['open', 'busy'],
      description: 'The dialog stays open and cannot be dismissed until the server answers.',
      invoke: {
        id: 'signOutOthers',
        src: 'signOutOthers',
        onDone: {
          target: 'loading',
          description: 'The sentence of the answer shows, and the list is read again to show the ended sessions.',
          actions: { type: 'keepMessage', params: ({ event }) => event.output },
        },
        onError: { target: 'listing', description: 'The refusal shows as a toast (the shared API handling); the list is unchanged.' },
      },
    },
  },
});
