import { assign, setup, type StateMachine } from 'xstate';
import { unboundPromise } from '../shared/unbound.ts';

export type PasswordConfirmContext = {
  /** The account's password as typed; forgotten with the chart, and emptied by a refusal. */
  password: string;
  /** Whether the server made the change, and its answer. */
  confirmed: boolean;
  result: unknown;
};
export type PasswordConfirmEvent =
  | { type: 'field.change'; name: 'password'; value: string }
  | { type: 'form.submit' }
  | { type: 'form.cancel' };
/** What the chart that invoked it learns when it ends: the change was made (with the server's answer), or the trader cancelled. */
export type PasswordConfirmOutput<Result = unknown> = { confirmed: true; result: Result } | { confirmed: false };

/**
 * A change that only the account's password confirms (removing the anti-phishing code, turning the withdrawal
 * allowlist off), invoked as a child by the chart whose change it is. The trader types the password; the change
 * is asked for with it; a refusal (a wrong password, most likely: the toast says why) empties the field to type
 * it again; the chart ends with the answer, or with nothing when the trader cancels (not while the change is
 * on its way: its answer would be lost).
 */
export const passwordConfirmMachine = setup({
  types: {
    context: {} as PasswordConfirmContext,
    events: {} as PasswordConfirmEvent,
    output: {} as PasswordConfirmOutput,
  },
  actors: {
    /** The change itself, bound by the chart that invokes this one (passwordConfirm.actors.ts `confirmedBy`). */
    change: unboundPromise<unknown, { password: string }>('change'),
  },
  actions: {
    setPassword: assign((_, params: { value: string }) => ({ password: params.value })),
    clearPassword: assign({ password: '' }),
    keepResult: assign((_, params: { result: unknown }) => ({ confirmed: true, result: params.result })),
  },
  guards: {
    hasPassword: ({ context }) => context.password !== '',
  },
}).createMachine({
  id: 'passwordConfirm',
  description: 'A change confirmed with the account password: typed, sent, typed again after a refusal, or cancelled.',
  context: { password: '', confirmed: false, result: null },
  initial: 'editing',
  states: {
    editing: {
      tags: ['form'],
      on: {
        'field.change': { actions: { type: 'setPassword', params: ({ event }) => ({ value: event.value }) } },
        'form.submit': { guard: 'hasPassword', target: 'submitting' },
        'form.cancel': { target: 'cancelled' },
      },
    },
    submitting: {
      tags: ['busy', 'form'],
      invoke: {
        id: 'change',
        src: 'change',
        input: ({ context }) => ({ password: context.password }),
        onDone: { target: 'confirmed', actions: { type: 'keepResult', params: ({ event }) => ({ result: event.output }) } },
        onError: {
          target: 'editing',
          description: 'Refused (a wrong password, most likely): the refusal shows as a toast, the password is typed again.',
          actions: 'clearPassword',
        },
      },
    },
    confirmed: { type: 'final', description: 'The change is made; the invoking chart takes its answer.' },
    cancelled: { type: 'final', description: 'The trader left the form; nothing changed.' },
  },
  output: ({ context }): PasswordConfirmOutput => (context.confirmed ? { confirmed: true, result: context.result } : { confirmed: false }),
});

type Machine = typeof passwordConfirmMachine;
/**
 * The chart as a parent declares it, for the answer its change gives (`Result`): the same chart, its output
 * typed by what the bound change answers (passwordConfirm.actors.ts `confirmedBy` is the only place that says so).
 */
export type PasswordConfirmLogic<Result> =
  Machine extends StateMachine<infer C, infer E, infer Ch, infer A, infer Ac, infer G, infer D, infer S, infer T, infer I, PasswordConfirmOutput, infer Em, infer M, infer Sc>
    ? StateMachine<C, E, Ch, A, Ac, G, D, S, T, I, PasswordConfirmOutput<Result>, Em, M, Sc>
    : never;
