import { fromPromise } from 'xstate';
import type { AccountService } from '../../services/accounts.ts';
import { clearStoredSession, writeStoredSession } from '../../services/storage.ts';
import { sessionMachine } from './session.machine.ts';

export const bindSession = (accounts: AccountService) =>
  sessionMachine.provide({
    actors: { logout: fromPromise(() => accounts.logout()) },
    actions: {
      persistSession: (_, params) => writeStoredSession(params),
      clearPersistedSession: () => clearStoredSession(),
    },
  });
