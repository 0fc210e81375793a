import type { User } from '../../contracts/index.ts';

/** The local-storage keys (docs/web-app.md "Session"): the session survives a reload. */
const TOKEN_KEY = 'authToken';
const USER_KEY = 'user';

export type StoredSession = { token: string; user: User };

export function readStoredSession(storage: Storage = localStorage): StoredSession | null {
  const token = storage.getItem(TOKEN_KEY);
  const rawUser = storage.getItem(USER_KEY);
  if (!token || !rawUser) return null;
  try {
    const user = JSON.parse(rawUser) as User;
    return user && typeof user.username === 'string' ? { token, user } : null;
  } catch {
    return null;
  }
}

export function writeStoredSession(session: StoredSession, storage: Storage = localStorage): void {
  storage.setItem(TOKEN_KEY, session.token);
  storage.setItem(USER_KEY, JSON.stringify(session.user));
}

export function clearStoredSession(storage: Storage = localStorage): void {
  storage.removeItem(TOKEN_KEY);
  storage.removeItem(USER_KEY);
}
