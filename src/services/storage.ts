import { DEVICE_ID_PATTERN, type User } from '../../contracts/index.ts';

/** The local-storage keys (docs/web-app.md "Session"): the session survives a reload. */
const TOKEN_KEY = 'authToken';
const USER_KEY = 'user';
/** This browser's device id: kept across sign-outs, since it names the browser, not the session. */
const DEVICE_ID_KEY = 'deviceId';
/** 128 random bits: nobody guesses another browser's id, and no two browsers share one. */
const DEVICE_ID_BYTES = 16;

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

/** 16 random bytes in base64url (22 characters), as `device_id` expects them. */
function newDeviceId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(DEVICE_ID_BYTES));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * This browser's device id, sent with each sign-in (server/src/accounts/README.md "New sign-ins"): made once and kept
 * in local storage. Where local storage cannot be written (a browser that refuses it) the id lives as long as the
 * page, and each sign-in there counts as a new device, which errs on the side of telling the owner.
 */
export function deviceId(storage: Storage = localStorage): string {
  try {
    const kept = storage.getItem(DEVICE_ID_KEY);
    if (kept !== null && DEVICE_ID_PATTERN.test(kept)) return kept;
    const made = newDeviceId();
    storage.setItem(DEVICE_ID_KEY, made);
    return made;
  } catch {
    return (pageDeviceId ??= newDeviceId());
  }
}
let pageDeviceId: string | undefined;

/** The language chosen on this device (src/i18n/locales.ts LOCALE_STORAGE_KEY), or null; storage refused reads as none. */
export function readStoredLocale(key: string, storage: Storage | undefined = globalThis.localStorage): string | null {
  try {
    return storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

/** Keeps the chosen language; storage refused (a privacy mode) keeps it for this page only. */
export function writeStoredLocale(key: string, locale: string, storage: Storage | undefined = globalThis.localStorage): void {
  try {
    storage?.setItem(key, locale);
  } catch {
    // The choice still applies to this page.
  }
}
