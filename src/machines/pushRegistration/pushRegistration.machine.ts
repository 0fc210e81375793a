import { assign, fromPromise, setup } from 'xstate';

export type PushPermission = 'default' | 'granted' | 'denied';
/** What the device can do, read when the chart starts. */
export type PushDevice = { supported: boolean; permission: PushPermission };

/**
 * Why the last registration failed, as the push service says it (services/push.ts `PushRegistrationFailed`):
 * `browser`, this browser or profile cannot subscribe; `service`, Peerex's side could not be reached. (The third
 * reason, notifications blocked for the site, is the `denied` state.)
 */
export type PushFailure = 'browser' | 'service';

export type PushRegistrationInput = { username: string };
export type PushRegistrationContext = {
  /** The Beams user id this device is registered under: the signed-in username (docs/web-app.md "Web push registration"). */
  username: string;
  /** Why the last registration failed; null when none has failed. /settings words it. */
  failure: PushFailure | null;
};
export type PushRegistrationEvent = { type: 'push.enable' };

/** The `reason` a failed registration carries; anything that carries none counts as the service's. */
const reasonOf = (error: unknown): PushFailure | 'denied' => {
  const reason = typeof error === 'object' && error !== null && 'reason' in error ? error.reason : undefined;
  return reason === 'denied' || reason === 'browser' ? reason : 'service';
};

/**
 * Web push registration of this device while signed in (docs/web-app.md "Web push registration"): registered under the
 * username and subscribed to "general". Its four states are the ones /settings names — permission prompt required, granted
 * but not registered, granted and registered, denied — plus checking, the calls in between, and unsupported
 * browsers, which stay quiet. The session chart invokes it while signed in and resets the
 * device when the session ends.
 */
export const pushRegistrationMachine = setup({
  types: {
    context: {} as PushRegistrationContext,
    events: {} as PushRegistrationEvent,
    input: {} as PushRegistrationInput,
  },
  actors: {
    /** Whether this browser can take web push, and the notification permission it has now. */
    readDevice: fromPromise<PushDevice>(async () => ({ supported: false, permission: 'default' })),
    /** The browser's permission prompt; resolves with the answer (a dismissed prompt stays `default`). */
    requestPermission: fromPromise<PushPermission>(async () => 'default'),
    /** Registers the device under the username and subscribes it to "general". */
    register: fromPromise<void, { username: string }>(async () => undefined),
  },
  actions: {
    keepFailure: assign((_, params: { error: unknown }) => ({ failure: reasonOf(params.error) === 'browser' ? 'browser' : 'service' })),
    clearFailure: assign({ failure: null }),
  },
  guards: {
    isUnsupported: (_, params: { device: PushDevice }) => !params.device.supported,
    isGranted: (_, params: { permission: PushPermission }) => params.permission === 'granted',
    isDenied: (_, params: { permission: PushPermission }) => params.permission === 'denied',
    failedAsDenied: (_, params: { error: unknown }) => reasonOf(params.error) === 'denied',
  },
}).createMachine({
  id: 'pushRegistration',
  description: 'Web push for this device while signed in: registered under the username, subscribed to "general".',
  context: ({ input }) => ({ username: input.username, failure: null }),
  initial: 'checking',
  states: {
    checking: {
      description: 'Reads what the browser supports and the permission it already has.',
      tags: ['busy'],
      invoke: {
        id: 'readDevice',
        src: 'readDevice',
        onDone: [
          { guard: { type: 'isUnsupported', params: ({ event }) => ({ device: event.output }) }, target: 'unsupported' },
          {
            guard: { type: 'isGranted', params: ({ event }) => ({ permission: event.output.permission }) },
            target: 'registering',
            description: 'Permission was given before: registers by itself, no prompt.',
          },
          { guard: { type: 'isDenied', params: ({ event }) => ({ permission: event.output.permission }) }, target: 'denied' },
          { target: 'promptRequired' },
        ],
        onError: { target: 'unsupported', description: 'A browser that cannot even say what it supports is treated as unsupported.' },
      },
    },
    promptRequired: {
      description: 'Permission prompt required: the browser asks only after a user gesture, so this waits for the button.',
      on: { 'push.enable': { target: 'askingPermission' } },
    },
    askingPermission: {
      description: "The browser's prompt is open.",
      tags: ['busy'],
      invoke: {
        id: 'requestPermission',
        src: 'requestPermission',
        onDone: [
          { guard: { type: 'isGranted', params: ({ event }) => ({ permission: event.output }) }, target: 'registering' },
          { guard: { type: 'isDenied', params: ({ event }) => ({ permission: event.output }) }, target: 'denied' },
          { target: 'promptRequired', description: 'The prompt was dismissed: it may be asked again.' },
        ],
        onError: { target: 'promptRequired' },
      },
    },
    registering: {
      description: 'Registers the device under the username and subscribes it to "general".',
      tags: ['busy'],
      entry: 'clearFailure',
      invoke: {
        id: 'register',
        src: 'register',
        input: ({ context }) => ({ username: context.username }),
        onDone: { target: 'registered' },
        onError: [
          {
            guard: { type: 'failedAsDenied', params: ({ event }) => ({ error: event.error }) },
            target: 'denied',
            description: 'Notifications were blocked for the site meanwhile (the trader\'s own choice): shown as denied, with how to undo it.',
          },
          {
            target: 'notRegistered',
            description: 'This browser cannot subscribe here, or the push service could not be reached: the page says which.',
            actions: { type: 'keepFailure', params: ({ event }) => ({ error: event.error }) },
          },
        ],
      },
    },
    registered: {
      description: 'Granted and registered: pushes for this user reach this device.',
    },
    notRegistered: {
      description: 'Granted but not registered: the registration failed, for the reason kept (this browser cannot subscribe, or the service was unreachable); the button retries.',
      tags: ['error'],
      on: { 'push.enable': { target: 'registering' } },
    },
    denied: {
      description: 'Denied: only the browser\'s site settings can change it, and the page says how.',
    },
    unsupported: {
      description: 'The browser cannot take web push: nothing is asked and no error is shown.',
    },
  },
});

export type PushRegistrationLogic = typeof pushRegistrationMachine;
