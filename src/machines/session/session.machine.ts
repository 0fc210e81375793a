import { assign, fromCallback, fromPromise, setup, type EventObject } from 'xstate';
import type { User } from '../../../contracts/index.ts';
import type { PushRegistrationLogic } from '../pushRegistration/pushRegistration.machine.ts';
import { optionalChart } from '../shared/unbound.ts';

export type SessionContext = { token: string | null; user: User | null };
export type SessionInput = { stored: { token: string; user: User } | null };
export type SessionEvent =
  | { type: 'session.signedIn'; token: string; user: User }
  | { type: 'session.logout' }
  | { type: 'session.expired' };

/**
 * The trader's session: token and user, in memory and in local storage. Created once by the composition
 * root; the router waits for it to leave `restoring` and redirects on what it says.
 */
export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionInput,
    children: {} as { pushRegistration: 'pushRegistration' },
  },
  actors: {
    /** Tells the server to end this session; the answer does not matter. */
    logout: fromPromise<unknown, { token: string }>(async () => undefined),
    /**
     * Holds the trader's own realtime channel open while signed in (bound to the pusher-js service): their
     * partners see them online, and what is pushed to them personally arrives here.
     */
    ownChannel: fromCallback<EventObject, { username: string }>(() => () => {}),
    /**
     * This device's web push registration under the username (the pushRegistration chart, bound to the push
     * service); declared by its type so this file stands alone in the visualizer, where it does nothing.
     */
    pushRegistration: optionalChart<PushRegistrationLogic>(),
  },
  actions: {
    remember: assign((_, params: { token: string; user: User }) => ({ token: params.token, user: params.user })),
    forget: assign({ token: null, user: null }),
    /** Writes `authToken` and `user` to local storage (bound to the storage service). */
    persistSession: (_, _params: { token: string; user: User }) => {},
    /** Removes both keys from local storage (bound to the storage service). */
    clearPersistedSession: () => {},
    /**
     * Unregisters this device from web push (bound to the push service): fire-and-forget, the session ends
     * whatever the push service answers.
     */
    resetPushRegistration: () => {},
  },
  delays: {
    /** How long a logout waits for the server before the session ends here anyway. */
    logoutTimeout: 5000,
  },
  guards: {
    hasStoredSession: ({ context }) => context.token !== null && context.user !== null,
  },
}).createMachine({
  id: 'session',
  description: 'Whether a trader is signed in in this browser, and the token every product call carries.',
  context: ({ input }) => ({ token: input.stored?.token ?? null, user: input.stored?.user ?? null }),
  initial: 'restoring',
  states: {
    restoring: {
      description: 'Reads the session kept in local storage on load.',
      always: [{ guard: 'hasStoredSession', target: 'signedIn' }, { target: 'signedOut' }],
    },
    signedOut: {
      description: 'Anonymous: only login, signup and forgot-password are reachable.',
      on: {
        'session.signedIn': {
          target: 'signedIn',
          description: 'Login, two-factor login or registration succeeded.',
          actions: [
            { type: 'remember', params: ({ event }) => ({ token: event.token, user: event.user }) },
            { type: 'persistSession', params: ({ event }) => ({ token: event.token, user: event.user }) },
          ],
        },
      },
    },
    signedIn: {
      description: 'A token is present; every product call carries it.',
      initial: 'active',
      exit: ['forget', 'clearPersistedSession', 'resetPushRegistration'],
      // The push registration (docs/api.md "Web push") runs while signed in and stops with the session.
      invoke: [
        { id: 'ownChannel', src: 'ownChannel', input: ({ context }) => ({ username: context.user?.username ?? '' }) },
        {
          id: 'pushRegistration',
          src: 'pushRegistration',
          input: ({ context }) => ({ username: context.user?.username ?? '' }),
        },
      ],
      on: {
        'session.expired': {
          target: 'signedOut',
          description: 'A 401 or a "Session expired"/"L101" answer: signed out at once, no server call.',
        },
      },
      states: {
        active: {
          on: { 'session.logout': { target: 'signingOut' } },
        },
        signingOut: {
          description: 'Tells the server; local state is cleared whatever it answers, or once it has kept silent too long.',
          tags: ['busy'],
          invoke: {
            id: 'logout',
            src: 'logout',
            input: ({ context }) => ({ token: context.token ?? '' }),
            onDone: { target: '#session.signedOut' },
            onError: { target: '#session.signedOut' },
          },
          after: {
            logoutTimeout: {
              target: '#session.signedOut',
              description: 'The server has not answered in time: signed out here anyway; its late answer changes nothing.',
            },
          },
        },
      },
    },
  },
});
