import { assign, fromPromise, setup } from 'xstate';
import type { Notice } from '../shared/notify.ts';
import { toCodeInput } from '../shared/validation.ts';

export type TwoFactorContext = {
  code: string;
  /** The pending TOTP secret while enrolment is being confirmed; dropped once enabled. */
  secret: string | null;
  otpauthUrl: string | null;
};
export type TwoFactorEvent =
  | { type: 'field.change'; name: 'code'; value: string }
  | { type: 'setup.start' }
  | { type: 'setup.cancel' }
  | { type: 'disable.start' }
  | { type: 'disable.cancel' }
  | { type: 'form.submit' }
  | { type: 'status.retry' };

/** Two-factor enrolment on /settings/security: turn TOTP on with a confirmed code, or off with a code. */
export const twoFactorMachine = setup({
  types: { context: {} as TwoFactorContext, events: {} as TwoFactorEvent },
  actors: {
    loadStatus: fromPromise<{ enabled: boolean }>(async () => {
      throw new Error('loadStatus is bound by the composition root');
    }),
    startSetup: fromPromise<{ secret: string; otpauth_url: string }>(async () => {
      throw new Error('startSetup is bound by the composition root');
    }),
    enable: fromPromise<string, { code: string }>(async () => {
      throw new Error('enable is bound by the composition root');
    }),
    disable: fromPromise<string, { code: string }>(async () => {
      throw new Error('disable is bound by the composition root');
    }),
  },
  actions: {
    setCode: assign((_, params: { value: string }) => ({ code: toCodeInput(params.value) })),
    clearCode: assign({ code: '' }),
    keepSecret: assign((_, params: { secret: string; otpauth_url: string }) => ({
      secret: params.secret,
      otpauthUrl: params.otpauth_url,
      code: '',
    })),
    forgetSecret: assign({ secret: null, otpauthUrl: null, code: '' }),
    notify: (_, _params: Notice) => {},
  },
  guards: {
    isEnabled: (_, params: { enabled: boolean }) => params.enabled,
    isCodeComplete: ({ context }) => context.code.length === 6,
  },
}).createMachine({
  id: 'twoFactor',
  description: 'Turning authenticator-app codes on or off for the signed-in trader.',
  context: { code: '', secret: null, otpauthUrl: null },
  initial: 'loading',
  on: {
    'field.change': { actions: { type: 'setCode', params: ({ event }) => ({ value: event.value }) } },
  },
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadStatus',
        src: 'loadStatus',
        onDone: [
          {
            guard: { type: 'isEnabled', params: ({ event }) => ({ enabled: event.output.enabled }) },
            target: 'enabled',
          },
          { target: 'disabled' },
        ],
        onError: { target: 'unavailable' },
      },
    },
    unavailable: {
      description: 'The status could not be read; the trader may try again.',
      on: { 'status.retry': { target: 'loading' } },
    },
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
      description: 'The QR code of the otpauth URL shows; a code from the app proves it was added.',
      on: {
        'form.submit': { guard: 'isCodeComplete', target: 'enabling' },
        'setup.cancel': { target: 'disabled', actions: 'forgetSecret' },
      },
    },
    enabling: {
      tags: ['busy', 'form'],
      invoke: {
        id: 'enable',
        src: 'enable',
        input: ({ context }) => ({ code: context.code }),
        onDone: {
          target: 'enabled',
          actions: [
            'forgetSecret',
            { type: 'notify', params: ({ event }) => ({ title: 'Two-factor enabled', description: event.output, type: 'success' }) },
          ],
        },
        onError: { target: 'confirmingSetup', actions: 'clearCode' },
      },
    },
    enabled: {
      description: 'Two-factor is on; every login asks for a code.',
      on: { 'disable.start': { target: 'confirmingDisable', actions: 'clearCode' } },
    },
    confirmingDisable: {
      tags: ['form'],
      description: 'A current code is needed to turn two-factor off.',
      on: {
        'form.submit': { guard: 'isCodeComplete', target: 'disabling' },
        'disable.cancel': { target: 'enabled', actions: 'clearCode' },
      },
    },
    disabling: {
      tags: ['busy', 'form'],
      invoke: {
        id: 'disable',
        src: 'disable',
        input: ({ context }) => ({ code: context.code }),
        onDone: {
          target: 'disabled',
          actions: [
            'clearCode',
            { type: 'notify', params: ({ event }) => ({ title: 'Two-factor disabled', description: event.output, type: 'success' }) },
          ],
        },
        onError: { target: 'confirmingDisable', actions: 'clearCode' },
      },
    },
  },
});
