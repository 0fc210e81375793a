import { assign, sendTo, setup } from 'xstate';
import type { SessionResponse } from '../../../contracts/index.ts';
import type { CodeEntryLogic, CodeEntryReport } from '../codeEntry/codeEntry.machine.ts';
import type { Notice } from '../shared/notify.ts';
import type { EmailProvenContext, EmailStepEvent } from '../shared/emailStep.ts';
import { editAfterEmailStep, emailStepGuards, enteringEmail, requestingCode } from '../shared/emailStep.ts';
import { unboundChart, unboundPromise, unboundRule } from '../shared/unbound.ts';

export type SignupField = 'email' | 'username' | 'password' | 'confirmPassword';
export type SignupContext = EmailProvenContext<SignupField>;
export type SignupEvent = EmailStepEvent<SignupField> | { type: 'code.resend' } | CodeEntryReport;

/** Three-step registration: email, emailed code, account (the server's rules: docs/rules.md "Accounts"). */
export const signupMachine = setup({
  types: { context: {} as SignupContext, events: {} as SignupEvent },
  actors: {
    requestCode: unboundPromise<string, { email: string }>('requestCode'),
    verifyCode: unboundPromise<string, { email: string; code: string }>('verifyCode'),
    register: unboundPromise<
      SessionResponse,
      { email: string; username: string; password: string; confirmPassword: string }
    >('register'),
    // The shared code entry chart (codeEntry.machine.ts), declared by its type: this file stands alone.
    codeEntry: unboundChart<CodeEntryLogic>('codeEntry'),
  },
  actions: {
    setField: assign(({ context }, params: { name: SignupField; value: string }) => ({ ...context, [params.name]: params.value })),
    revealErrors: assign({ showErrors: true }),
    startStep: assign({ showErrors: false }),
    keepCode: assign((_, params: { code: string }) => ({ code: params.code })),
    submitCodeEntry: sendTo('codeEntry', { type: 'code.submit' }),
    clearCode: assign({ code: '' }),
    establishSession: (_, _params: SessionResponse) => {},
    notify: (_, _params: Notice) => {},
  },
  guards: {
    ...emailStepGuards,
    isEmailValid: unboundRule<{ value: string }>('isEmailValid'),
    isAccountValid: unboundRule<{ username: string; password: string; confirmPassword: string }>('isAccountValid'),
  },
}).createMachine({
  id: 'signup',
  description: 'Registration: the email is proven with a 6-digit code before the account is created.',
  context: { email: '', code: '', username: '', password: '', confirmPassword: '', showErrors: false },
  initial: 'enteringEmail',
  on: {
    'field.change': editAfterEmailStep<SignupField>(),
  },
  states: {
    enteringEmail: enteringEmail<SignupField>(),
    requestingCode: requestingCode('requestCode', 'enteringCode'),
    enteringCode: {
      tags: ['form'],
      description: 'The emailed code goes into the code entry child, which shows its message while incomplete.',
      entry: 'startStep',
      invoke: { id: 'codeEntry', src: 'codeEntry' },
      on: {
        'form.submit': { description: '"Verify Email": the code entry hands the code over once complete.', actions: 'submitCodeEntry' },
        'code.entered': { target: 'verifyingCode', actions: { type: 'keepCode', params: ({ event }) => ({ code: event.code }) } },
        'code.resend': { target: 'resendingCode', actions: 'clearCode' },
        'email.edit': { target: 'enteringEmail', description: '"Back to email entry".', actions: 'clearCode' },
      },
    },
    resendingCode: {
      tags: ['busy'],
      invoke: {
        id: 'resendCode',
        src: 'requestCode',
        input: ({ context }) => ({ email: context.email }),
        onDone: {
          target: 'enteringCode',
          actions: { type: 'notify', params: ({ event }) => ({ title: 'OTP Sent', description: event.output }) },
        },
        onError: { target: 'enteringCode' },
      },
    },
    verifyingCode: {
      tags: ['busy'],
      invoke: {
        id: 'verifyCode',
        src: 'verifyCode',
        input: ({ context }) => ({ email: context.email, code: context.code }),
        onDone: {
          target: 'completingAccount',
          actions: {
            type: 'notify',
            params: { title: 'Successful', description: 'Email has been verified successfully', type: 'success' },
          },
        },
        onError: { target: 'enteringCode', actions: 'clearCode' },
      },
    },
    completingAccount: {
      tags: ['form'],
      description: '"Complete your account": the verified email is read-only.',
      entry: 'startStep',
      on: {
        'form.submit': [
          {
            guard: {
              type: 'isAccountValid',
              params: ({ context }) => ({ username: context.username, password: context.password, confirmPassword: context.confirmPassword }),
            },
            target: 'registering',
          },
          { actions: 'revealErrors', description: 'Show the username, password and confirmation messages.' },
        ],
      },
    },
    registering: {
      tags: ['busy'],
      invoke: {
        id: 'register',
        src: 'register',
        input: ({ context }) => ({
          email: context.email,
          username: context.username.trim(),
          password: context.password,
          confirmPassword: context.confirmPassword,
        }),
        onDone: {
          target: 'registered',
          actions: { type: 'establishSession', params: ({ event }) => event.output },
        },
        onError: { target: 'completingAccount' },
      },
    },
    registered: {
      type: 'final',
      description: 'Signed in; the router goes to /.',
      entry: { type: 'notify', params: { title: 'Signup Successful!', type: 'success' } },
    },
  },
});
