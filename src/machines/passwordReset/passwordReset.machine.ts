import { assign, fromPromise, setup } from 'xstate';
import type { Notice } from '../shared/notify.ts';
import { codeError, confirmPasswordError, emailError, passwordError, toCodeInput } from '../shared/validation.ts';

export type ResetField = 'email' | 'code' | 'password' | 'confirmPassword';
export type ResetContext = Record<ResetField, string> & { showErrors: boolean };
export type ResetEvent =
  | { type: 'field.change'; name: ResetField; value: string }
  | { type: 'form.submit' }
  | { type: 'email.edit' };

/** Two-step password reset (spec sections 2 and 4 "Password reset"). */
export const passwordResetMachine = setup({
  types: { context: {} as ResetContext, events: {} as ResetEvent },
  actors: {
    requestReset: fromPromise<string, { email: string }>(async () => {
      throw new Error('requestReset is bound by the composition root');
    }),
    resetPassword: fromPromise<
      string,
      { email: string; code: string; password: string; confirmPassword: string }
    >(async () => {
      throw new Error('resetPassword is bound by the composition root');
    }),
  },
  actions: {
    setField: assign(({ context }, params: { name: ResetField; value: string }) => ({
      ...context,
      [params.name]: params.name === 'code' ? toCodeInput(params.value) : params.value,
    })),
    revealErrors: assign({ showErrors: true }),
    startStep: assign({ showErrors: false }),
    notify: (_, _params: Notice) => {},
    /** Leaves for /login (history replaced). */
    goToLogin: () => {},
  },
  guards: {
    canEditAfterEmailStep: (_, params: { name: ResetField }) => params.name !== 'email',
    isEmailValid: ({ context }) => emailError(context.email) === undefined,
    isResetValid: ({ context }) =>
      codeError(context.code) === undefined &&
      passwordError(context.password) === undefined &&
      confirmPasswordError(context.confirmPassword, context.password) === undefined,
  },
}).createMachine({
  id: 'passwordReset',
  description: 'A forgotten password: a code is mailed to the address, then code and new password reset it.',
  context: { email: '', code: '', password: '', confirmPassword: '', showErrors: false },
  initial: 'enteringEmail',
  on: {
    'field.change': {
      guard: { type: 'canEditAfterEmailStep', params: ({ event }) => ({ name: event.name }) },
      description: 'Past the email step the address is read-only: the code was sent to it.',
      actions: { type: 'setField', params: ({ event }) => ({ name: event.name, value: event.value }) },
    },
  },
  states: {
    enteringEmail: {
      tags: ['form'],
      entry: 'startStep',
      on: {
        'field.change': {
          actions: { type: 'setField', params: ({ event }) => ({ name: event.name, value: event.value }) },
        },
        'form.submit': [
          { guard: 'isEmailValid', target: 'requestingCode' },
          { actions: 'revealErrors', description: 'Show "Please enter a valid email address".' },
        ],
      },
    },
    requestingCode: {
      tags: ['busy'],
      description: 'The button reads "Sending...". The server answers alike for known and unknown emails.',
      invoke: {
        id: 'requestReset',
        src: 'requestReset',
        input: ({ context }) => ({ email: context.email }),
        onDone: {
          target: 'enteringDetails',
          actions: { type: 'notify', params: ({ event }) => ({ title: 'OTP Sent', description: event.output }) },
        },
        onError: { target: 'enteringEmail' },
      },
    },
    enteringDetails: {
      tags: ['form'],
      description: 'Code, new password and confirmation; the email is read-only.',
      entry: 'startStep',
      on: {
        'form.submit': [
          { guard: 'isResetValid', target: 'resetting' },
          { actions: 'revealErrors' },
        ],
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
        onError: { target: 'enteringDetails' },
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
