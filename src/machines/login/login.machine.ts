import { assign, sendTo, setup } from 'xstate';
import type { LoginResponse, SessionResponse } from '../../../contracts/index.ts';
import type { CodeEntryLogic, CodeEntryReport } from '../codeEntry/codeEntry.machine.ts';
import type { Notice } from '../shared/notify.ts';
import { unboundChart, unboundPromise, unboundRule } from '../shared/unbound.ts';

export type LoginField = 'username' | 'password' | 'recoveryCode';
export type LoginContext = {
  username: string;
  password: string;
  /** The authenticator code, once the code entry handed it over. */
  code: string;
  /** One of the recovery codes shown at enrolment, for a trader without the authenticator app. */
  recoveryCode: string;
  /** The interim token of a two-factor login; only `security/two_factor_login/` accepts it. */
  interimToken: string | null;
  /** Set by a submit with missing fields, so their messages show. */
  showErrors: boolean;
};
export type LoginEvent =
  | { type: 'field.change'; name: LoginField; value: string }
  | { type: 'form.submit' }
  | { type: 'code.submit' }
  | { type: 'recovery.start' }
  | { type: 'recovery.cancel' }
  | { type: 'secondFactor.cancel' }
  | CodeEntryReport;

/** A recovery code as typed (`abcde-fghij`): letters, digits, dashes and spaces, a little over its length at most. */
const recoveryCodeInput = (value: string) => value.replace(/[^A-Za-z0-9\s-]/g, '').slice(0, 13);

type SecondFactor = { code: string } | { recovery_code: string };
type Failed = { event: { error: unknown } };

/**
 * A second factor on its way (the call `submitCode`, invoked as `id`, with the interim token): the session on
 * success; a sign-in attempt that is over (expired, used or out of tries, `over` says how) goes back to the
 * credentials; any other refusal is `retry`, to type another.
 */
const verifying = <const Id extends string, const Retry>(id: Id, factor: (context: LoginContext) => SecondFactor, over: string, retry: Retry) => ({
  tags: ['busy' as const],
  invoke: {
    id,
    src: 'submitCode' as const,
    input: ({ context }: { context: LoginContext }) => ({ ...factor(context), token: context.interimToken ?? '' }),
    onDone: {
      target: 'signedIn',
      actions: { type: 'establishSession' as const, params: ({ event }: { event: { output: SessionResponse } }) => event.output },
    },
    onError: [
      {
        guard: { type: 'isSignInOver' as const, params: ({ event }: Failed) => ({ error: event.error }) },
        target: 'editingCredentials',
        description: over,
        actions: 'dropSecondFactor' as const,
      },
      retry,
    ],
  },
});

/** Login with an optional second factor: an authenticator code or one of the recovery codes (docs/api.md "Login"). */
export const loginMachine = setup({
  types: { context: {} as LoginContext, events: {} as LoginEvent },
  actors: {
    submitCredentials: unboundPromise<LoginResponse, { username: string; password: string }>('submitCredentials'),
    submitCode: unboundPromise<SessionResponse, { token: string } & ({ code: string } | { recovery_code: string })>('submitCode'),
    // The shared code entry chart (codeEntry.machine.ts), declared by its type: this file stands alone.
    codeEntry: unboundChart<CodeEntryLogic>('codeEntry'),
  },
  actions: {
    setField: assign(({ context }, params: { name: LoginField; value: string }) =>
      params.name === 'recoveryCode' ? { recoveryCode: recoveryCodeInput(params.value) } : { ...context, [params.name]: params.value },
    ),
    revealErrors: assign({ showErrors: true }),
    keepInterimToken: assign((_, params: { token: string }) => ({ interimToken: params.token, code: '', recoveryCode: '' })),
    keepCode: assign((_, params: { code: string }) => ({ code: params.code })),
    submitCodeEntry: sendTo('codeEntry', { type: 'code.submit' }),
    dropSecondFactor: assign({ interimToken: null, code: '', recoveryCode: '', password: '' }),
    clearCode: assign({ code: '' }),
    clearRecoveryCode: assign({ recoveryCode: '' }),
    /** Hands token and user to the session actor. */
    establishSession: (_, _params: SessionResponse) => {},
    notify: (_, _params: Notice) => {},
  },
  guards: {
    hasCredentials: ({ context }) => context.username.trim() !== '' && context.password !== '',
    /** One of the recovery codes' shape (shared/rules.ts); bound with the chart. */
    isRecoveryCode: unboundRule<{ value: string }>('isRecoveryCode'),
    needsSecondFactor: (_, params: { two_factor: boolean }) => params.two_factor,
    /** The account service rejects an attempt that is over with an error of kind `signInExpired`. */
    isSignInOver: (_, params: { error: unknown }) =>
      typeof params.error === 'object' && params.error !== null && (params.error as { kind?: unknown }).kind === 'signInExpired',
  },
}).createMachine({
  id: 'login',
  description: 'Sign in with username and password, then an authenticator code (or a recovery code) when two-factor is on.',
  context: { username: '', password: '', code: '', recoveryCode: '', interimToken: null, showErrors: false },
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
      description: 'The 6-digit code screen (the code entry child); "Verify Code" is enabled only with all six digits.',
      invoke: { id: 'codeEntry', src: 'codeEntry' },
      on: {
        'code.submit': { description: '"Verify Code": the code entry hands the code over once complete.', actions: 'submitCodeEntry' },
        'code.entered': { target: 'verifyingCode', actions: { type: 'keepCode', params: ({ event }) => ({ code: event.code }) } },
        'recovery.start': {
          target: 'awaitingRecoveryCode',
          description: 'No phone at hand: "Use a recovery code" instead.',
          actions: 'clearRecoveryCode',
        },
        'secondFactor.cancel': { target: 'editingCredentials', actions: 'dropSecondFactor' },
      },
    },
    awaitingRecoveryCode: {
      tags: ['form'],
      description: 'One of the recovery codes saved at enrolment signs in once instead of the authenticator code.',
      on: {
        'field.change': {
          actions: { type: 'setField', params: ({ event }) => ({ name: event.name, value: event.value }) },
        },
        'code.submit': {
          guard: { type: 'isRecoveryCode', params: ({ context }) => ({ value: context.recoveryCode }) },
          target: 'verifyingRecoveryCode',
        },
        'recovery.cancel': { target: 'awaitingSecondFactor', actions: 'clearCode' },
        'secondFactor.cancel': { target: 'editingCredentials', actions: 'dropSecondFactor' },
      },
    },
    verifyingCode: verifying(
      'submitCode',
      (context) => ({ code: context.code }),
      'The sign-in attempt expired, was used or ran out of tries; the trader is told so, and only a new login goes on.',
      { target: 'awaitingSecondFactor', description: 'A wrong code: the trader types another into a fresh code entry.', actions: 'clearCode' },
    ),
    verifyingRecoveryCode: verifying(
      'submitRecoveryCode',
      (context) => ({ recovery_code: context.recoveryCode }),
      'The sign-in attempt is over (expired, used or out of tries).',
      { target: 'awaitingRecoveryCode', description: 'A wrong or spent recovery code.', actions: 'clearRecoveryCode' },
    ),
    signedIn: {
      type: 'final',
      description: 'The session actor takes over; the router leaves /login for the page the trader asked for, or /.',
      entry: {
        type: 'notify',
        params: { title: 'Welcome back!', description: 'Successfully logged in.', type: 'success' },
      },
    },
  },
});
