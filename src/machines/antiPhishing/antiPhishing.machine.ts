import { assign, setup } from 'xstate';
import type { AntiPhishingStatus } from '../../../contracts/account-protections.ts';
import type { Notice } from '../shared/notify.ts';
import type { PasswordConfirmLogic, PasswordConfirmOutput } from '../passwordConfirm/passwordConfirm.machine.ts';
import { unboundChart, unboundPromise, unboundRule } from '../shared/unbound.ts';

export type AntiPhishingField = 'antiPhishingCode' | 'password';
export type AntiPhishingContext = {
  /** The code printed in every mail now (null: none). */
  current: string | null;
  /** The new code as typed in the form. */
  draft: string;
  /** The account's password, asked for every change; forgotten once the change is done, refused or abandoned. */
  password: string;
};
export type AntiPhishingEvent =
  | { type: 'field.change'; name: AntiPhishingField; value: string }
  | { type: 'set.start' }
  | { type: 'clear.start' }
  | { type: 'form.submit' }
  | { type: 'form.cancel' }
  | { type: 'status.retry' };

const keepCurrent = { type: 'keepCurrent', params: ({ event }: { event: { output: AntiPhishingStatus } }) => event.output } as const;

/** The anti-phishing code on /settings/security: shown, set or removed, each change with the password. */
export const antiPhishingMachine = setup({
  types: { context: {} as AntiPhishingContext, events: {} as AntiPhishingEvent },
  actors: {
    loadStatus: unboundPromise<AntiPhishingStatus>('loadStatus'),
    setCode: unboundPromise<AntiPhishingStatus, { anti_phishing_code: string; password: string }>('setCode'),
    /** Removing the code, confirmed with the password (the passwordConfirm chart, bound to the call). */
    confirmClear: unboundChart<PasswordConfirmLogic<AntiPhishingStatus>>('confirmClear'),
  },
  actions: {
    setField: assign((_, params: { name: AntiPhishingField; value: string }) =>
      params.name === 'password' ? { password: params.value } : { draft: params.value },
    ),
    keepCurrent: assign((_, params: AntiPhishingStatus) => ({ current: params.anti_phishing_code })),
    /** The answer of a confirmed removal (a cancelled one changes nothing). */
    keepConfirmed: assign((_, params: PasswordConfirmOutput<AntiPhishingStatus>) => (params.confirmed ? { current: params.result.anti_phishing_code } : {})),
    clearForm: assign({ draft: '', password: '' }),
    clearPassword: assign({ password: '' }),
    notify: (_, _params: Notice) => {},
  },
  guards: {
    isConfirmed: (_, params: PasswordConfirmOutput) => params.confirmed,
    hasCode: ({ context }) => context.current !== null,
    /** A code the contract takes, and the password (antiPhishing.rules.ts); bound with the chart. */
    isCodeReady: unboundRule<{ code: string; password: string }>('isCodeReady'),
  },
}).createMachine({
  id: 'antiPhishing',
  description:
    'A code the trader chooses, printed in every mail Peerex sends, so a mail without it is known to be forged. Setting and removing it ask for the password.',
  context: { current: null, draft: '', password: '' },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadStatus',
        src: 'loadStatus',
        onDone: { target: 'showing', actions: keepCurrent },
        onError: { target: 'unavailable' },
      },
    },
    unavailable: {
      description: 'The code could not be read; the trader may try again.',
      on: { 'status.retry': { target: 'loading' } },
    },
    showing: {
      description: 'The current code shows (or that there is none).',
      on: {
        'set.start': { target: 'editing', actions: 'clearForm' },
        'clear.start': { guard: 'hasCode', target: 'confirmingClear', actions: 'clearForm' },
      },
    },
    editing: {
      tags: ['form'],
      description: 'A new code (letters, digits, spaces, - and _) and the password.',
      on: {
        'field.change': { actions: { type: 'setField', params: ({ event }) => event } },
        'form.submit': {
          guard: { type: 'isCodeReady', params: ({ context }) => ({ code: context.draft, password: context.password }) },
          target: 'saving',
        },
        'form.cancel': { target: 'showing', actions: 'clearForm' },
      },
    },
    saving: {
      tags: ['busy', 'form'],
      invoke: {
        id: 'setCode',
        src: 'setCode',
        input: ({ context }) => ({ anti_phishing_code: context.draft.trim(), password: context.password }),
        onDone: {
          target: 'showing',
          actions: [keepCurrent, 'clearForm', { type: 'notify', params: { title: 'Anti-phishing code saved', type: 'success' } }],
        },
        onError: {
          target: 'editing',
          description: 'Refused (a wrong password, most likely): the refusal shows as a toast; the code stays, the password is typed again.',
          actions: 'clearPassword',
        },
      },
    },
    confirmingClear: {
      description: 'Removing the code asks for the password (the passwordConfirm child).',
      tags: ['form'],
      invoke: {
        id: 'confirmClear',
        src: 'confirmClear',
        onDone: [
          {
            guard: { type: 'isConfirmed', params: ({ event }) => event.output },
            target: 'showing',
            actions: [
              { type: 'keepConfirmed', params: ({ event }) => event.output },
              { type: 'notify', params: { title: 'Anti-phishing code removed', type: 'success' } },
            ],
          },
          { target: 'showing', description: 'Cancelled: the code stays.' },
        ],
      },
    },
  },
});
