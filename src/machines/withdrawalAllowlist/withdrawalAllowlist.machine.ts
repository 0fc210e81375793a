import { assign, setup } from 'xstate';
import type { AllowlistEntry, AllowlistStatus } from '../../../contracts/account-protections.ts';
import type { Notice } from '../shared/notify.ts';
import type { AllowlistAddition } from './withdrawalAllowlist.rules.ts';
import type { PasswordConfirmLogic, PasswordConfirmOutput } from '../passwordConfirm/passwordConfirm.machine.ts';
import { unboundChart, unboundPromise, unboundRule } from '../shared/unbound.ts';

export type AllowlistField = 'network' | 'address' | 'label' | 'password';
export type WithdrawalAllowlistContext = {
  /** The switch. */
  enabled: boolean;
  /** After the switch was turned off: until then withdrawals still go only to usable listed addresses. */
  enforcedUntil: string | null;
  addresses: AllowlistEntry[];
  /** The add form (a network key, the address, an optional label) and the password the widening changes ask for. */
  network: string;
  address: string;
  label: string;
  password: string;
  /** The address being removed, while its call runs. */
  removingId: number | null;
};
export type WithdrawalAllowlistEvent =
  | { type: 'field.change'; name: AllowlistField; value: string }
  | { type: 'allowlist.enable' }
  | { type: 'disable.start' }
  | { type: 'add.start' }
  | { type: 'address.remove'; id: number }
  | { type: 'form.submit' }
  | { type: 'form.cancel' }
  | { type: 'status.retry' };

/** The network a new address starts on: the select always has a choice. */
export const DEFAULT_NETWORK = 'bitcoin';
const emptyForm = { network: DEFAULT_NETWORK, address: '', label: '', password: '' };
const statusOf = (status: AllowlistStatus) => ({ enabled: status.enabled, enforcedUntil: status.enforced_until, addresses: status.addresses });
const keepStatus = { type: 'keepStatus', params: ({ event }: { event: { output: AllowlistStatus } }) => event.output } as const;

/**
 * The withdrawal allowlist on /settings/security. What narrows where coins may go (on, removing an address)
 * applies at once; what widens it (off, a new address) asks for the password and waits 24 hours on the server.
 */
export const withdrawalAllowlistMachine = setup({
  types: { context: {} as WithdrawalAllowlistContext, events: {} as WithdrawalAllowlistEvent },
  actors: {
    loadStatus: unboundPromise<AllowlistStatus>('loadStatus'),
    enable: unboundPromise<AllowlistStatus>('enable'),
    /** Turning it off, confirmed with the password (the passwordConfirm chart, bound to the call). */
    confirmDisable: unboundChart<PasswordConfirmLogic<AllowlistStatus>>('confirmDisable'),
    addAddress: unboundPromise<AllowlistStatus, AllowlistAddition>('addAddress'),
    removeAddress: unboundPromise<AllowlistStatus, { id: number }>('removeAddress'),
  },
  actions: {
    setField: assign((_, params: { name: AllowlistField; value: string }) => ({ [params.name]: params.value })),
    keepStatus: assign((_, params: AllowlistStatus) => statusOf(params)),
    /** The answer of a confirmed turning off (a cancelled one changes nothing). */
    keepConfirmed: assign((_, params: PasswordConfirmOutput<AllowlistStatus>) => (params.confirmed ? statusOf(params.result) : {})),
    clearForm: assign(emptyForm),
    clearPassword: assign({ password: '' }),
    markRemoving: assign((_, params: { id: number }) => ({ removingId: params.id })),
    unmarkRemoving: assign({ removingId: null }),
    notify: (_, _params: Notice) => {},
  },
  guards: {
    isConfirmed: (_, params: PasswordConfirmOutput) => params.confirmed,
    isEnabled: ({ context }) => context.enabled,
    isDisabled: ({ context }) => !context.enabled,
    /** The contract's rules for a new address (withdrawalAllowlist.rules.ts); bound with the chart. */
    isAdditionValid: unboundRule<AllowlistAddition>('isAdditionValid'),
  },
}).createMachine({
  id: 'withdrawalAllowlist',
  description:
    'When on, withdrawals go only to saved addresses, each usable 24 hours after it was added; turning it off asks for the password and keeps it enforced for 24 hours.',
  context: { enabled: false, enforcedUntil: null, addresses: [], ...emptyForm, removingId: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadStatus',
        src: 'loadStatus',
        onDone: { target: 'ready', actions: keepStatus },
        onError: { target: 'unavailable' },
      },
    },
    unavailable: {
      description: 'The allowlist could not be read; the trader may try again.',
      on: { 'status.retry': { target: 'loading' } },
    },
    ready: {
      description: 'The switch and the list show.',
      on: {
        'allowlist.enable': { guard: 'isDisabled', target: 'enabling', description: 'Turning it on only narrows where coins may go: at once, no password.' },
        'disable.start': { guard: 'isEnabled', target: 'confirmingDisable', actions: 'clearForm' },
        'add.start': { target: 'editingAddress', actions: 'clearForm' },
        'address.remove': {
          target: 'removing',
          description: 'Removing narrows too: at once, no password.',
          actions: { type: 'markRemoving', params: ({ event }) => ({ id: event.id }) },
        },
      },
    },
    enabling: {
      tags: ['busy'],
      invoke: {
        id: 'enable',
        src: 'enable',
        onDone: { target: 'ready', actions: [keepStatus, { type: 'notify', params: { title: 'Withdrawal allowlist on', type: 'success' } }] },
        onError: { target: 'ready' },
      },
    },
    confirmingDisable: {
      description: 'The password turns it off (the passwordConfirm child); it stays enforced for 24 hours more.',
      tags: ['form'],
      invoke: {
        id: 'confirmDisable',
        src: 'confirmDisable',
        onDone: [
          {
            guard: { type: 'isConfirmed', params: ({ event }) => event.output },
            target: 'ready',
            actions: [
              { type: 'keepConfirmed', params: ({ event }) => event.output },
              { type: 'notify', params: { title: 'Withdrawal allowlist off', type: 'success' } },
            ],
          },
          { target: 'ready', description: 'Cancelled: it stays on.' },
        ],
      },
    },
    editingAddress: {
      tags: ['form'],
      description: 'A network, the address, an optional label, and the password.',
      on: {
        'field.change': { actions: { type: 'setField', params: ({ event }) => event } },
        'form.submit': {
          guard: {
            type: 'isAdditionValid',
            params: ({ context }) => ({ network: context.network, address: context.address, label: context.label, password: context.password }),
          },
          target: 'addingAddress',
        },
        'form.cancel': { target: 'ready', actions: 'clearForm' },
      },
    },
    addingAddress: {
      tags: ['busy', 'form'],
      invoke: {
        id: 'addAddress',
        src: 'addAddress',
        input: ({ context }) => ({ network: context.network, address: context.address.trim(), label: context.label.trim(), password: context.password }),
        onDone: {
          target: 'ready',
          description: 'The new address is listed, usable 24 hours from now.',
          actions: [keepStatus, 'clearForm', { type: 'notify', params: { title: 'Address added', type: 'success' } }],
        },
        onError: { target: 'editingAddress', description: 'The form stays as typed but for the password.', actions: 'clearPassword' },
      },
    },
    removing: {
      tags: ['busy'],
      invoke: {
        id: 'removeAddress',
        src: 'removeAddress',
        input: ({ context }) => ({ id: context.removingId ?? 0 }),
        onDone: { target: 'ready', actions: [keepStatus, 'unmarkRemoving'] },
        onError: { target: 'ready', actions: 'unmarkRemoving' },
      },
    },
  },
});
