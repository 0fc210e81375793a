import { createActor } from 'xstate';
import type { User } from '../../contracts/index.ts';
import { bindSession } from '../../src/machines/session/session.actors.ts';
import { sessionMachine } from '../../src/machines/session/session.machine.ts';
import {
  selectInitial,
  selectIsSignedIn,
  selectPushRegistration,
  selectToken,
  selectUser,
} from '../../src/machines/session/session.selectors.ts';
import type { AccountService } from '../../src/services/accounts.ts';
import type { RealtimeService } from '../../src/services/realtime.ts';
import { readStoredSession, writeStoredSession } from '../../src/services/storage.ts';
import { selectPushView } from '../../src/machines/pushRegistration/pushRegistration.selectors.ts';
import { fakePush } from '../support/fakePushService.ts';
import { flush } from '../support/machines.ts';

/** The spec's logout waits this long for the server (the chart's `logoutTimeout`). */
const LOGOUT_TIMEOUT_MS = 5000;

const dana: User = { username: 'dana', email: 'dana@example.com', websocket_token: 'ws-dana' };

/** A logout the test answers by hand. */
function pendingLogout() {
  let answer!: { resolve: (value: unknown) => void; reject: (error: unknown) => void };
  const logout = vi.fn(() => new Promise((resolve, reject) => (answer = { resolve, reject })));
  return { logout, answer: () => answer };
}

/** The session actor exactly as app.tsx builds it: bound to real local storage. */
function startSession(accounts: Partial<AccountService>) {
  return createActor(bindSession(accounts as AccountService), { input: { stored: readStoredSession() } }).start();
}

beforeEach(() => localStorage.clear());

describe('session', () => {
  it("keeps the trader's own realtime channel open while signed in, and leaves it on sign-out", async () => {
    const left = vi.fn();
    const subscribe = vi.fn(() => left);
    const realtime = { subscribe } as unknown as RealtimeService;
    const session = createActor(bindSession({ logout: async () => undefined } as unknown as AccountService, realtime), {
      input: { stored: null },
    }).start();
    expect(subscribe).not.toHaveBeenCalled();
    session.send({ type: 'session.signedIn', token: 'token-dana', user: dana });
    expect(subscribe).toHaveBeenCalledWith('private-user-dana', { events: {} });
    expect(left).not.toHaveBeenCalled();
    session.send({ type: 'session.expired' });
    expect(left).toHaveBeenCalledTimes(1);
  });

  it('registers this device for push under the username while signed in, and resets it on logout', async () => {
    const push = fakePush({ permission: 'granted' });
    const logout = vi.fn(async () => 'Logged out');
    const session = createActor(bindSession({ logout } as unknown as AccountService, undefined, push.service), {
      input: { stored: null },
    }).start();
    expect(selectPushRegistration(session.getSnapshot()), 'no registration while signed out').toBeUndefined();

    session.send({ type: 'session.signedIn', token: 'token-dana', user: dana });
    await flush();
    const registration = selectPushRegistration(session.getSnapshot());
    expect(registration && selectPushView(registration.getSnapshot())).toBe('registering');
    expect(push.registrations.map((call) => call.username)).toEqual(['dana']);
    push.registrations[0]!.resolve();
    await flush();
    expect(selectPushView(registration!.getSnapshot())).toBe('registered');
    expect(push.spies.reset).not.toHaveBeenCalled();

    session.send({ type: 'session.logout' });
    await flush();
    expect(selectIsSignedIn(session.getSnapshot())).toBe(false);
    expect(push.spies.reset).toHaveBeenCalledOnce();
    expect(selectPushRegistration(session.getSnapshot())).toBeUndefined();
    expect(registration!.getSnapshot().status, 'the registration chart stops with the session').toBe('stopped');
  });

  it('resets the push registration on session expiry too, and a new sign-in registers the new user', async () => {
    writeStoredSession({ token: 'token-dana', user: dana });
    const push = fakePush({ permission: 'granted' });
    const session = createActor(bindSession({ logout: vi.fn() } as unknown as AccountService, undefined, push.service), {
      input: { stored: readStoredSession() },
    }).start();
    await flush();
    expect(push.registrations.map((call) => call.username)).toEqual(['dana']);

    session.send({ type: 'session.expired' });
    expect(push.spies.reset).toHaveBeenCalledOnce();

    session.send({ type: 'session.signedIn', token: 'token-erin', user: { ...dana, username: 'erin' } });
    await flush();
    expect(push.registrations.map((call) => call.username)).toEqual(['dana', 'erin']);
  });

  it('restores the session kept in local storage', () => {
    writeStoredSession({ token: 'token-dana', user: dana });
    const session = startSession({});
    const snapshot = session.getSnapshot();
    expect(selectIsSignedIn(snapshot)).toBe(true);
    expect(selectToken(snapshot)).toBe('token-dana');
    expect(selectUser(snapshot)).toEqual(dana);
    expect(selectInitial(snapshot)).toBe('D');
  });

  it('starts signed out when nothing (or something unreadable) is stored', () => {
    expect(selectIsSignedIn(startSession({}).getSnapshot())).toBe(false);
    localStorage.setItem('authToken', 'token-without-user');
    expect(selectIsSignedIn(startSession({}).getSnapshot())).toBe(false);
    localStorage.setItem('user', '{not json');
    const snapshot = startSession({}).getSnapshot();
    expect(selectIsSignedIn(snapshot)).toBe(false);
    expect(selectInitial(snapshot)).toBe('U');
  });

  it('signing in stores the token and the user in local storage and in memory', () => {
    const session = startSession({});
    session.send({ type: 'session.signedIn', token: 'token-dana', user: dana });
    expect(selectToken(session.getSnapshot())).toBe('token-dana');
    expect(localStorage.getItem('authToken')).toBe('token-dana');
    expect(JSON.parse(localStorage.getItem('user')!)).toEqual(dana);
  });

  it('logout calls the server and then clears memory and storage', async () => {
    writeStoredSession({ token: 'token-dana', user: dana });
    const { logout, answer } = pendingLogout();
    const session = startSession({ logout });
    session.send({ type: 'session.logout' });

    expect(logout).toHaveBeenCalledOnce();
    expect(session.getSnapshot().hasTag('busy')).toBe(true);
    // The call still carries the token: it is cleared only once the server has had its say.
    expect(selectToken(session.getSnapshot())).toBe('token-dana');

    answer().resolve('Logged out');
    await flush();
    expect(selectIsSignedIn(session.getSnapshot())).toBe(false);
    expect(session.getSnapshot().context).toEqual({ token: null, user: null });
    expect(localStorage.getItem('authToken')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
  });

  it('logout clears local state even when the server call fails', async () => {
    writeStoredSession({ token: 'token-dana', user: dana });
    const { logout, answer } = pendingLogout();
    const session = startSession({ logout });
    session.send({ type: 'session.logout' });
    answer().reject(new Error('An unknown error occurred'));
    await flush();
    expect(selectIsSignedIn(session.getSnapshot())).toBe(false);
    expect(session.getSnapshot().hasTag('busy')).toBe(false);
    expect(readStoredSession()).toBeNull();
  });

  it('a logout the server never answers ends the session here after 5 s; the late answer changes nothing', async () => {
    vi.useFakeTimers();
    try {
      writeStoredSession({ token: 'token-dana', user: dana });
      const { logout, answer } = pendingLogout();
      const session = startSession({ logout });
      session.send({ type: 'session.logout' });

      await vi.advanceTimersByTimeAsync(LOGOUT_TIMEOUT_MS - 1);
      expect(selectIsSignedIn(session.getSnapshot()), 'still waiting for the server').toBe(true);
      expect(session.getSnapshot().hasTag('busy')).toBe(true);

      await vi.advanceTimersByTimeAsync(1);
      expect(selectIsSignedIn(session.getSnapshot())).toBe(false);
      expect(session.getSnapshot().hasTag('busy')).toBe(false);
      expect(session.getSnapshot().context).toEqual({ token: null, user: null });
      expect(readStoredSession()).toBeNull();

      session.send({ type: 'session.signedIn', token: 'token-2', user: dana });
      answer().reject(new Error('An unknown error occurred'));
      await vi.advanceTimersByTimeAsync(0);
      expect(selectToken(session.getSnapshot()), 'the abandoned call must not sign the new session out').toBe('token-2');
      expect(logout).toHaveBeenCalledOnce();
    } finally {
      vi.useRealTimers();
    }
  });

  it('session.expired clears everything at once without a server call', () => {
    writeStoredSession({ token: 'token-dana', user: dana });
    const logout = vi.fn();
    const session = startSession({ logout });
    session.send({ type: 'session.expired' });
    expect(logout).not.toHaveBeenCalled();
    expect(selectIsSignedIn(session.getSnapshot())).toBe(false);
    expect(session.getSnapshot().context).toEqual({ token: null, user: null });
    expect(readStoredSession()).toBeNull();
  });

  it('an expiry during a logout ends it at once, and a late answer changes nothing', async () => {
    writeStoredSession({ token: 'token-dana', user: dana });
    const { logout, answer } = pendingLogout();
    const session = startSession({ logout });
    session.send({ type: 'session.logout' });
    session.send({ type: 'session.expired' });
    expect(selectIsSignedIn(session.getSnapshot())).toBe(false);

    session.send({ type: 'session.signedIn', token: 'token-2', user: dana });
    answer().resolve('Logged out');
    await flush();
    // The old logout's answer must not sign the new session out.
    expect(selectToken(session.getSnapshot())).toBe('token-2');
    expect(readStoredSession()).toEqual({ token: 'token-2', user: dana });
  });

  it('ignores events that do not apply: expiry or logout while signed out, a second sign-in', () => {
    const logout = vi.fn();
    const session = startSession({ logout });
    session.send({ type: 'session.expired' });
    session.send({ type: 'session.logout' });
    expect(logout).not.toHaveBeenCalled();
    session.send({ type: 'session.signedIn', token: 'token-1', user: dana });
    session.send({ type: 'session.signedIn', token: 'token-2', user: { ...dana, username: 'other' } });
    expect(selectToken(session.getSnapshot())).toBe('token-1');
    expect(readStoredSession()?.token).toBe('token-1');
  });

  it('the unbound chart loads on its own (as in the visualizer) and its default logout ignores the answer', async () => {
    const session = createActor(sessionMachine, { input: { stored: { token: 't', user: dana } } }).start();
    session.send({ type: 'session.logout' });
    await flush();
    expect(session.getSnapshot().matches('signedOut')).toBe(true);
  });
});
