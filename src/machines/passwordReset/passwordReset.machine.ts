import { assign, sendTo, setup } from 'xstate';
import type { CodeEntryLogic, CodeEntryReport } from '../codeEntry/codeEntry.machine.ts';
import type { Notice } from '../shared/notify.ts';
import type { EmailProvenContext, EmailStepEvent } from '../shared/emailStep.ts';
import { editAfterEmailStep, emailStepGuards, enteringEmail, requestingCode } from '../shared/emailStep.ts';
import { unboundChart, unboundPromise, unboundRule } from '../shared/unbound.ts';

export type ResetField = 'email' | 'password' | 'confirmPassword';
export type ResetContext = EmailProvenContext<ResetField>;
export type ResetEvent = EmailStepEvent<ResetField> | CodeEntryReport;

/** Two-step password reset: the email, then the mailed code with the new password; success goes to /login. */
export const passwordResetMachine = setup({
  types: { context: {} as ResetContext, events: {} as ResetEvent },
  actors: {
    requestReset: unboundPromise<string, { email: string }>('requestReset'),
    /** The form as typed, with the code the code entry handed over. */
    resetPassword: unboundPromise<string, Omit<ResetContext, 'showErrors'>>('resetPassword'),
    // The shared code entry chart (codeEntry.machine.ts), declared by its type: this file stands alone.
    codeEntry: unboundChart<CodeEntryLogic>('codeEntry'),
  },
  actions: {
    setField: assign(({ context }, params: { name: ResetField; value: string }) => ({ ...context, [params.name]: params.value })),
    revealErrors: assign({ showErrors: true }),
    keepCode: assign((_, params: { code: string }) => ({ code: params.code })),
    clearCode: assign({ code: '' }),
    submitCodeEntry: sendTo('codeEntry', { type: 'code.submit' }),
    startStep: assign({ showErrors: false }),
    notify: (_, _params: Notice) => {},
    /** Leaves for /login (history replaced). */
    goToLogin: () => {},
  },
  guards: {
    ...emailStepGuards,
    isEmailValid: unboundRule<{ value: string }>('isEmailValid'),
    isNewPasswordValid: unboundRule<{ password: string; confirmPassword: string }>('isNewPasswordValid'),
  },
}).createMachine({
  id: 'passwordReset',
  description: 'A forgotten password: a code is mailed to the address, then code and new password reset it.',
  context: { email: '', code: '', password: '', confirmPassword: '', showErrors: false },
  initial: 'enteringEmail',
  on: {
    'field.change': editAfterEmailStep<ResetField>(),
  },
  states: {
    enteringEmail: enteringEmail<ResetField>(),
    requestingCode: requestingCode(
      'requestReset',
      'enteringDetails',
      'The button reads "Sending...". The server answers alike for known and unknown emails.',
    ),
    enteringDetails: {
      tags: ['form'],
      description: 'Code (the code entry child), new password and confirmation; the email is read-only.',
      entry: 'startStep',
      invoke: { id: 'codeEntry', src: 'codeEntry' },
      on: {
        'form.submit': [
          {
            guard: { type: 'isNewPasswordValid', params: ({ context }) => ({ password: context.password, confirmPassword: context.confirmPassword }) },
            description: '"Submit": the code entry hands the code over once complete, or shows its message.',
            actions: 'submitCodeEntry',
          },
          { description: 'The password messages show; so does the code\'s, if it is incomplete.', actions: ['revealErrors', 'submitCodeEntry'] },
        ],
        'code.entered': {
          guard: { type: 'isNewPasswordValid', params: ({ context }) => ({ password: context.password, confirmPassword: context.confirmPassword }) },
          target: 'resetting',
          actions: { type: 'keepCode', params: ({ event }) => ({ code: event.code }) },
        },
        'email.edit': { target: 'enteringEmail' },
      },
    },
    resetting: {
      tags: ['busy'],
      description: 'The button reads "Submitting...".',
      invoke: {
        id: 'resetPassword',
        src: 'resetPassword',
        input: ({ context }) => ({
          email: context.email,
          code: context.code,
          password: context.password,
          confirmPassword: context.confirmPassword,
        }),
        onDone: { target: 'done' },
        onError: { target: 'enteringDetails', description: 'Refused: the trader types the code again into a fresh code entry.', actions: 'clearCode' },
      },
    },
    done: {
      type: 'final',
      entry: [
        {
          type: 'notify',
          params: { title: 'Password reset successful', description: 'Kindly login with your new password', type: 'success' },
        },
        'goToLogin',
      ],
    },
  },
});
