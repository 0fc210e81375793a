import { assign, sendTo, setup } from 'xstate';
import type { RecoveryCodesResponse } from '../../../contracts/index.ts';
import type { CodeEntryLogic, CodeEntryReport } from '../codeEntry/codeEntry.machine.ts';
import type { Notice } from '../shared/notify.ts';
import { passwordForm, readingStatus, sendingForm, unreadable, type CardFormEvent } from '../shared/securityCard.ts';
import { unboundChart, unboundPromise, unboundRule } from '../shared/unbound.ts';

export type TwoFactorField = 'code' | 'password';
export type TwoFactorContext = {
  /** The new authenticator's code (enrolment, handed over by the code entry) or, to turn off or renew, an authenticator or recovery code as typed. */
  code: string;
  /** The account's password, asked again for every change; forgotten as soon as the change is done or abandoned. */
  password: string;
  /** The pending TOTP secret while enrolment is being confirmed; dropped once enabled. */
  secret: string | null;
  otpauthUrl: string | null;
  /** Recovery codes in clear, only while they are shown after enabling or renewing. */
  recoveryCodes: string[] | null;
  recoveryCodesLeft: number;
};
export type TwoFactorEvent =
  | CardFormEvent<TwoFactorField>
  | { type: 'setup.start' }
  | { type: 'setup.cancel' }
  | { type: 'disable.start' }
  | { type: 'disable.cancel' }
  | { type: 'recoveryCodes.start' }
  | { type: 'recoveryCodes.cancel' }
  | { type: 'recoveryCodes.acknowledge' }
  | { type: 'status.retry' }
  | CodeEntryReport;

type Proof = { code: string; password: string };
/** The code and the password as typed: what a change is checked and sent with. */
const proof = ({ context }: { context: Proof }) => ({ code: context.code, password: context.password });
type StatusRead = { event: { output: { enabled: boolean; recovery_codes_left: number } } };
type Answer<Output> = { event: { output: Output } };
/** New recovery codes (enabling, renewing): they show this once, and the toast carries the server's sentence. */
const showingCodes = (title: string) =>
  ({
    target: 'showingRecoveryCodes',
    actions: [
      { type: 'showRecoveryCodes', params: ({ event }: Answer<RecoveryCodesResponse>) => ({ codes: event.output.recovery_codes }) },
      { type: 'notify', params: ({ event }: Answer<RecoveryCodesResponse>): Notice => ({ title, description: event.output.message, type: 'success' }) },
    ],
  }) as const;
/** Turned off: the form is forgotten, no recovery code is left, and the toast carries the server's sentence. */
const turnedOff = {
  target: 'disabled',
  actions: [
    'clearForm',
    { type: 'keepStatus', params: { recovery_codes_left: 0 } },
    { type: 'notify', params: ({ event }: Answer<string>): Notice => ({ title: 'Two-factor disabled', description: event.output, type: 'success' }) },
  ],
} as const;

/**
 * What the turn-off and renewal forms take as typed: digits alone are an authenticator code (six at most);
 * anything else is a recovery code's letters, digits and dashes (one may well start with a digit).
 */
const secondFactorInput = (value: string) =>
  /^[\d\s]*$/.test(value) ? value.replace(/\D/g, '').slice(0, 6) : value.replace(/[^A-Za-z0-9\s-]/g, '').slice(0, 13);

/** Two-factor on /settings/security: on with a confirmed code, off, or new recovery codes; each asks for the password. */
export const twoFactorMachine = setup({
  types: { context: {} as TwoFactorContext, events: {} as TwoFactorEvent },
  actors: {
    loadStatus: unboundPromise<{ enabled: boolean; recovery_codes_left: number }>('loadStatus'),
    // The shared code entry chart (codeEntry.machine.ts), declared by its type: this file stands alone.
    codeEntry: unboundChart<CodeEntryLogic>('codeEntry'),
    startSetup: unboundPromise<{ secret: string; otpauth_url: string }>('startSetup'),
    enable: unboundPromise<RecoveryCodesResponse, Proof>('enable'),
    disable: unboundPromise<string, Proof>('disable'),
    renewRecoveryCodes: unboundPromise<RecoveryCodesResponse, Proof>('renewRecoveryCodes'),
  },
  actions: {
    setField: assign((_, params: { name: TwoFactorField; value: string }) =>
      params.name === 'password' ? { password: params.value } : { code: secondFactorInput(params.value) },
    ),
    keepCode: assign((_, params: { code: string }) => ({ code: params.code })),
    submitCodeEntry: sendTo('codeEntry', { type: 'code.submit' }),
    clearCode: assign({ code: '' }),
    clearForm: assign({ code: '', password: '' }),
    keepStatus: assign((_, params: { recovery_codes_left: number }) => ({ recoveryCodesLeft: params.recovery_codes_left })),
    keepSecret: assign((_, params: { secret: string; otpauth_url: string }) => ({
      secret: params.secret,
      otpauthUrl: params.otpauth_url,
      code: '',
      password: '',
    })),
    forgetSecret: assign({ secret: null, otpauthUrl: null, code: '', password: '' }),
    showRecoveryCodes: assign((_, params: { codes: string[] }) => ({
      recoveryCodes: params.codes,
      recoveryCodesLeft: params.codes.length,
      secret: null,
      otpauthUrl: null,
      code: '',
      password: '',
    })),
    forgetRecoveryCodes: assign({ recoveryCodes: null }),
    notify: (_, _params: Notice) => {},
  },
  guards: {
    isEnabled: (_, params: { enabled: boolean }) => params.enabled,
    hasPassword: ({ context }) => context.password !== '',
    isPasswordField: (_, params: { name: TwoFactorField }) => params.name === 'password',
    /** An authenticator or recovery code, and the password (shared/rules.ts); bound with the chart. */
    isProofComplete: unboundRule<Proof>('isProofComplete'),
  },
}).createMachine({
  id: 'twoFactor',
  description: 'Turning authenticator-app codes on or off for the signed-in trader, with recovery codes for a lost phone.',
  context: { code: '', password: '', secret: null, otpauthUrl: null, recoveryCodes: null, recoveryCodesLeft: 0 },
  initial: 'loading',
  states: {
    loading: readingStatus('loadStatus', [
      {
        guard: { type: 'isEnabled', params: ({ event }: StatusRead) => ({ enabled: event.output.enabled }) },
        target: 'enabled',
        actions: { type: 'keepStatus', params: ({ event }: StatusRead) => event.output },
      },
      { target: 'disabled' },
    ]),
    unavailable: unreadable('The status', 'status.retry'),
    disabled: {
      description: 'Two-factor is off; logins need only the password.',
      on: { 'setup.start': { target: 'startingSetup' } },
    },
    startingSetup: {
      tags: ['busy'],
      invoke: {
        id: 'startSetup',
        src: 'startSetup',
        onDone: {
          target: 'confirmingSetup',
          actions: { type: 'keepSecret', params: ({ event }) => event.output },
        },
        onError: { target: 'disabled' },
      },
    },
    confirmingSetup: {
      tags: ['form'],
      description: 'The QR code of the otpauth URL shows; a code from the app (the code entry child) proves it was added, the password proves who asks.',
      invoke: { id: 'codeEntry', src: 'codeEntry' },
      on: {
        'field.change': {
          guard: { type: 'isPasswordField', params: ({ event }) => ({ name: event.name }) },
          description: 'The code goes to the code entry; only the password is kept here.',
          actions: { type: 'setField', params: ({ event }) => event },
        },
        'form.submit': { guard: 'hasPassword', description: 'The code entry hands the code over once complete.', actions: 'submitCodeEntry' },
        'code.entered': { guard: 'hasPassword', target: 'enabling', actions: { type: 'keepCode', params: ({ event }) => ({ code: event.code }) } },
        'setup.cancel': { target: 'disabled', actions: 'forgetSecret' },
      },
    },
    enabling: sendingForm('enable', proof, {
      onDone: showingCodes('Two-factor enabled'),
      onError: {
        target: 'confirmingSetup',
        description: 'A wrong code or password: the code is cleared (it is stale by now); the password stays to be corrected.',
        actions: 'clearCode',
      },
    }),
    showingRecoveryCodes: {
      description: 'The recovery codes show this once; the trader confirms having saved them.',
      on: { 'recoveryCodes.acknowledge': { target: 'enabled', actions: 'forgetRecoveryCodes' } },
    },
    enabled: {
      description: 'Two-factor is on; every login asks for a code, or one of the recovery codes.',
      on: {
        'disable.start': { target: 'confirmingDisable', actions: 'clearForm' },
        'recoveryCodes.start': { target: 'confirmingRenewal', actions: 'clearForm' },
      },
    },
    confirmingDisable: passwordForm(
      'A current code (or a recovery code, when the phone is lost) and the password turn two-factor off.',
      { guard: { type: 'isProofComplete', params: proof }, target: 'disabling' },
      { 'disable.cancel': 'enabled' },
    ),
    disabling: sendingForm('disable', proof, {
      onDone: turnedOff,
      onError: { target: 'confirmingDisable', actions: 'clearCode' },
    }),
    confirmingRenewal: passwordForm(
      'A current code (or a recovery code) and the password make a new set of recovery codes; the old ones stop working.',
      { guard: { type: 'isProofComplete', params: proof }, target: 'renewingRecoveryCodes' },
      { 'recoveryCodes.cancel': 'enabled' },
    ),
    renewingRecoveryCodes: sendingForm('renewRecoveryCodes', proof, {
      onDone: showingCodes('New recovery codes'),
      onError: { target: 'confirmingRenewal', actions: 'clearCode' },
    }),
  },
});
