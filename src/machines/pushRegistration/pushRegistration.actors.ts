import { fromPromise } from 'xstate';
import type { PushService } from '../../services/push.ts';
import { pushRegistrationMachine } from './pushRegistration.machine.ts';

/** The push registration chart bound to the push service (the session chart invokes it while signed in). */
export const bindPushRegistration = (push: PushService) =>
  pushRegistrationMachine.provide({
    actors: {
      readDevice: fromPromise(async () => ({ supported: (await push.support()) === 'supported', permission: push.permission() })),
      requestPermission: fromPromise(() => push.requestPermission()),
      register: fromPromise(({ input }: { input: { username: string } }) => push.register(input.username)),
    },
  });
