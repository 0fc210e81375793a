import { fromCallback, fromPromise, type EventObject } from 'xstate';
import { userChannelName } from '../../../contracts/index.ts';
import type { AccountService } from '../../services/accounts.ts';
import type { RealtimeService } from '../../services/realtime.ts';
import { clearStoredSession, writeStoredSession } from '../../services/storage.ts';
import { bindPushRegistration, type DevicePush } from '../pushRegistration/pushRegistration.actors.ts';
import { sessionMachine } from './session.machine.ts';

export const bindSession = (accounts: AccountService, realtime?: RealtimeService, push?: DevicePush) =>
  sessionMachine.provide({
    actors: {
      logout: fromPromise(() => accounts.logout()),
      ...(realtime
        ? { ownChannel: fromCallback<EventObject, { username: string }>(({ input }) => realtime.subscribe(userChannelName(input.username), { events: {} })) }
        : {}),
      ...(push ? { pushRegistration: bindPushRegistration(push) } : {}),
    },
    actions: {
      persistSession: (_, params) => writeStoredSession(params),
      clearPersistedSession: () => clearStoredSession(),
      ...(push ? { resetPushRegistration: () => void push.reset() } : {}),
    },
  });
