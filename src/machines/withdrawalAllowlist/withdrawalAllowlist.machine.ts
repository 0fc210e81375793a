import { assign, setup } from 'xstate';
import type { AllowlistEntry, AllowlistStatus } from '../../../contracts/account-protections.ts';
import type { NetworkKey } from '../../../contracts/wallet.ts';
import type { Notice } from '../shared/notify.ts';
import type { AllowlistAddition } from './withdrawalAllowlist.rules.ts';
import type { PasswordConfirmLogic, PasswordConfirmOutput } from '../passwordConfirm/passwordConfirm.machine.ts';
import type { CardFormEvent } from '../shared/securityCard.ts';
import { confirmedChangeGuards, confirmingWithPassword, passwordForm, readingStatus, sendingForm, unreadable } from '../shared/securityCard.ts';
import { unboundChart, unboundPromise, unboundRule } from '../shared/unbound.ts';

export type AllowlistField = 'network' | 'address' | 'label' | 'password';
export type WithdrawalAllowlistContext = {
  /** The switch. */
  enabled: boolean;
  /** After the switch was turned off: until then withdrawals still go only to usable listed addresses. */
  enforcedUntil: string | null;
  addresses: AllowlistEntry[];
  /** The networks an address can be listed on, as the server said (the add form's choices). */
  networks: NetworkKey[];
  /** The add form (a network key, the address, an optional label) and the password the widening changes ask for. */
  network: string;
  address: string;
  label: string;
  password: string;
  /** The address being removed, while its call runs. */
  removingId: number | null;
};
export type WithdrawalAllowlistEvent =
  | CardFormEvent<AllowlistField>
  | { type: 'allowlist.enable' }
  | { type: 'disable.start' }
  | { type: 'add.start' }
  | { type: 'address.remove'; id: number }
  | { type: 'form.cancel' }
  | { type: 'status.retry' };

/** The network a new address starts on: the select always has a choice. */
export const DEFAULT_NETWORK = 'bitcoin';
const emptyForm = { network: DEFAULT_NETWORK, address: '', label: '', password: '' };
const statusOf = (status: AllowlistStatus) => ({
  enabled: status.enabled,
  enforcedUntil: status.enforced_until,
  addresses: status.addresses,
  networks: status.networks,
});
const keepStatus = { type: 'keepStatus', params: ({ event }: { event: { output: AllowlistStatus } }) => event.output } as const;
type Form = { context: WithdrawalAllowlistContext };
/** The add form as the rule checks it. */
const addition = ({ context }: Form) => ({ network: context.network, address: context.address, label: context.label, password: context.password });
/** The add form as it is sent: the address and the label trimmed. */
const trimmedAddition = (form: Form) => {
  const typed = addition(form);
  return { ...typed, address: typed.address.trim(), label: typed.label.trim() };
};

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
    ...confirmedChangeGuards,
    isEnabled: ({ context }) => context.enabled,
    isDisabled: ({ context }) => !context.enabled,
    /** The contract's rules for a new address (withdrawalAllowlist.rules.ts); bound with the chart. */
    isAdditionValid: unboundRule<AllowlistAddition>('isAdditionValid'),
  },
}).createMachine({
  id: 'withdrawalAllowlist',
  description:
    'When on, withdrawals go only to saved addresses, each usable 24 hours after it was added; turning it off asks for the password and keeps it enforced for 24 hours.',
  context: { enabled: false, enforcedUntil: null, addresses: [], networks: [], ...emptyForm, removingId: null },
  initial: 'loading',
  states: {
    loading: readingStatus('loadStatus', { target: 'ready', actions: keepStatus }),
    unavailable: unreadable('The allowlist', 'status.retry'),
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
    confirmingDisable: confirmingWithPassword(
      'confirmDisable',
      'The password turns it off (the passwordConfirm child); it stays enforced for 24 hours more.',
      { back: 'ready', done: { title: 'Withdrawal allowlist off', type: 'success' }, cancelled: 'Cancelled: it stays on.' },
    ),
    editingAddress: passwordForm(
      'A network, the address, an optional label, and the password.',
      { guard: { type: 'isAdditionValid', params: addition }, target: 'addingAddress' },
      { 'form.cancel': 'ready' },
    ),
    addingAddress: sendingForm('addAddress', trimmedAddition, {
      onDone: {
        target: 'ready',
        description: 'The new address is listed, usable 24 hours from now.',
        actions: [keepStatus, 'clearForm', { type: 'notify', params: { title: 'Address added', type: 'success' } }],
      },
      onError: { target: 'editingAddress', description: 'The form stays as typed but for the password.', actions: 'clearPassword' },
    }),
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
