import { fromPromise } from 'xstate';
import type { PushPermission, PushService } from '../../services/push.ts';
import { pushRegistrationMachine } from './pushRegistration.machine.ts';

/**
 * The calls of the push service the device's registration makes; `permission` may answer a promise, so the service
 * can be one that loads on its first call (app.tsx: only a signed-in trader's device registers).
 */
export type DevicePush = Pick<PushService, 'support' | 'requestPermission' | 'register' | 'reset'> & {
  permission: () => PushPermission | Promise<PushPermission>;
};

/** The push registration chart bound to the push service (the session chart invokes it while signed in). */
export const bindPushRegistration = (push: DevicePush) =>
  pushRegistrationMachine.provide({
    actors: {
      readDevice: fromPromise(async () => ({ supported: (await push.support()) === 'supported', permission: await push.permission() })),
      requestPermission: fromPromise(() => push.requestPermission()),
      register: fromPromise(({ input }: { input: { username: string } }) => push.register(input.username)),
    },
  });
