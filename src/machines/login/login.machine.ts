import { assign, fromPromise, setup } from 'xstate';
import type { LoginResponse, SessionResponse } from '../../../contracts/index.ts';
import type { Notice } from '../shared/notify.ts';

export type LoginField = 'username' | 'password' | 'code';
export type LoginContext = {
  username: string;
  password: string;
  code: string;
  /** The interim token of a two-factor login; only `security/two_factor_login/` accepts it. */
  interimToken: string | null;
  /** Set by a submit with missing fields, so their messages show. */
  showErrors: boolean;
};
export type LoginEvent =
  | { type: 'field.change'; name: LoginField; value: string }
  | { type: 'form.submit' }
  | { type: 'code.submit' }
  | { type: 'secondFactor.cancel' };

export const CODE_LENGTH = 6;

/** Login with an optional second factor (spec sections 2 and 4 "Login"). */
export const loginMachine = setup({
  types: { context: {} as LoginContext, events: {} as LoginEvent },
  actors: {
    submitCredentials: fromPromise<LoginResponse, { username: string; password: string }>(async () => {
      throw new Error('submitCredentials is bound by the composition root');
    }),
    submitCode: fromPromise<SessionResponse, { code: string; token: string }>(async () => {
      throw new Error('submitCode is bound by the composition root');
    }),
  },
  actions: {
    setField: assign(({ context }, params: { name: LoginField; value: string }) =>
      params.name === 'code'
        ? { code: params.value.trim().slice(0, CODE_LENGTH) }
        : { ...context, [params.name]: params.value },
    ),
    revealErrors: assign({ showErrors: true }),
    keepInterimToken: assign((_, params: { token: string }) => ({ interimToken: params.token, code: '' })),
    dropSecondFactor: assign({ interimToken: null, code: '', password: '' }),
    clearCode: assign({ code: '' }),
    /** Hands token and user to the session actor. */
    establishSession: (_, _params: SessionResponse) => {},
    notify: (_, _params: Notice) => {},
  },
  guards: {
    hasCredentials: ({ context }) => context.username.trim() !== '' && context.password !== '',
    isCodeComplete: ({ context }) => context.code.length === CODE_LENGTH,
    needsSecondFactor: (_, params: { two_factor: boolean }) => params.two_factor,
    /** The api service rejects a 401 with an error whose `status` is 401. */
    isInterimTokenDead: (_, params: { error: unknown }) =>
      typeof params.error === 'object' && params.error !== null && (params.error as { status?: unknown }).status === 401,
  },
}).createMachine({
  id: 'login',
  description: 'Sign in with username and password, then an authenticator code when two-factor is on.',
  context: { username: '', password: '', code: '', interimToken: null, showErrors: false },
  initial: 'editingCredentials',
  states: {
    editingCredentials: {
      tags: ['form'],
      on: {
        'field.change': {
          actions: { type: 'setField', params: ({ event }) => ({ name: event.name, value: event.value }) },
        },
        'form.submit': [
          { guard: 'hasCredentials', target: 'submittingCredentials' },
          { description: 'Username or password missing: show the messages.', actions: 'revealErrors' },
        ],
      },
    },
    submittingCredentials: {
      tags: ['busy'],
      invoke: {
        id: 'submitCredentials',
        src: 'submitCredentials',
        input: ({ context }) => ({ username: context.username.trim(), password: context.password }),
        onDone: [
          {
            guard: { type: 'needsSecondFactor', params: ({ event }) => ({ two_factor: event.output.two_factor }) },
            target: 'awaitingSecondFactor',
            description: 'The server asks for an authenticator code and hands out an interim token.',
            actions: { type: 'keepInterimToken', params: ({ event }) => ({ token: event.output.token }) },
          },
          {
            target: 'signedIn',
            actions: {
              type: 'establishSession',
              params: ({ event }) => {
                if (event.output.two_factor) throw new Error('unreachable: guarded above');
                return { token: event.output.token, user: event.output.user };
              },
            },
          },
        ],
        onError: {
          target: 'editingCredentials',
          description: 'Refused: the shared error handling has shown why; only the busy state ends.',
        },
      },
    },
    awaitingSecondFactor: {
      tags: ['form'],
      description: 'The 6-digit code screen; "Verify Code" is enabled only with exactly 6 characters.',
      on: {
        'field.change': {
          actions: { type: 'setField', params: ({ event }) => ({ name: event.name, value: event.value }) },
        },
        'code.submit': { guard: 'isCodeComplete', target: 'verifyingCode' },
        'secondFactor.cancel': { target: 'editingCredentials', actions: 'dropSecondFactor' },
      },
    },
    verifyingCode: {
      tags: ['busy'],
      invoke: {
        id: 'submitCode',
        src: 'submitCode',
        input: ({ context }) => ({ code: context.code, token: context.interimToken ?? '' }),
        onDone: {
          target: 'signedIn',
          actions: { type: 'establishSession', params: ({ event }) => event.output },
        },
        onError: [
          {
            guard: { type: 'isInterimTokenDead', params: ({ event }) => ({ error: event.error }) },
            target: 'editingCredentials',
            description:
              'The interim token expired, was used or ran out of tries (HTTP 401): only a new login gets another.',
            actions: 'dropSecondFactor',
          },
          { target: 'awaitingSecondFactor', description: 'A wrong code: the trader may type another.', actions: 'clearCode' },
        ],
      },
    },
    signedIn: {
      type: 'final',
      description: 'The session actor takes over; the router leaves /login for /.',
      entry: {
        type: 'notify',
        params: { title: 'Welcome back!', description: 'Successfully logged in.', type: 'success' },
      },
    },
  },
});
