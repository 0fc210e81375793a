import { assign, setup } from 'xstate';
import type { AntiPhishingStatus } from '../../../contracts/account-protections.ts';
import type { Notice } from '../shared/notify.ts';
import type { PasswordConfirmLogic, PasswordConfirmOutput } from '../passwordConfirm/passwordConfirm.machine.ts';
import type { CardFormEvent } from '../shared/securityCard.ts';
import { confirmedChangeGuards, confirmingWithPassword, passwordForm, readingStatus, sendingForm, unreadable } from '../shared/securityCard.ts';
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
  | CardFormEvent<AntiPhishingField>
  | { type: 'set.start' }
  | { type: 'clear.start' }
  | { type: 'form.cancel' }
  | { type: 'status.retry' };

const keepCurrent = { type: 'keepCurrent', params: ({ event }: { event: { output: AntiPhishingStatus } }) => event.output } as const;
type Form = { context: AntiPhishingContext };
/** The new code and the password, as the rule checks them. */
const typedCode = ({ context }: Form) => ({ code: context.draft, password: context.password });

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
    ...confirmedChangeGuards,
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
    loading: readingStatus('loadStatus', { target: 'showing', actions: keepCurrent }),
    unavailable: unreadable('The code', 'status.retry'),
    showing: {
      description: 'The current code shows (or that there is none).',
      on: {
        'set.start': { target: 'editing', actions: 'clearForm' },
        'clear.start': { guard: 'hasCode', target: 'confirmingClear', actions: 'clearForm' },
      },
    },
    editing: passwordForm(
      'A new code (letters, digits, spaces, - and _) and the password.',
      { guard: { type: 'isCodeReady', params: typedCode }, target: 'saving' },
      { 'form.cancel': 'showing' },
    ),
    saving: sendingForm('setCode', ({ context }: Form) => ({ anti_phishing_code: context.draft.trim(), password: context.password }), {
      onDone: {
        target: 'showing',
        actions: [keepCurrent, 'clearForm', { type: 'notify', params: { title: 'Anti-phishing code saved', type: 'success' } }],
      },
      onError: {
        target: 'editing',
        description: 'Refused (a wrong password, most likely): the refusal shows as a toast; the code stays, the password is typed again.',
        actions: 'clearPassword',
      },
    }),
    confirmingClear: confirmingWithPassword(
      'confirmClear',
      'Removing the code asks for the password (the passwordConfirm child).',
      { back: 'showing', done: { title: 'Anti-phishing code removed', type: 'success' }, cancelled: 'Cancelled: the code stays.' },
    ),
  },
});
