import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { SessionResponse, UserRole } from '../../../contracts/security.ts';
import type { Queryable } from '../infra/db/db.ts';
import { refuse } from '../sentences.ts';
import { hashToken, newToken } from '../infra/secrets.ts';
import { clientAddress } from '../infra/http/client-address.ts';
import type { StaffMember } from '../audit/audit.repository.ts';
import type { Caller } from './protections.ts';
import { sessionsRepository, type SessionLookup } from './sessions.repository.ts';
import { shared } from '../infra/shared.ts';

/** Who is calling: set by the private scope's hook, null in the public scope. */
export interface AuthSession {
  id: string;
  userId: string;
  username: string;
  email: string;
  /** As stored now: a moderator whose role was taken back is a trader from their next call. */
  role: UserRole;
  /** As read with the session: until when its releases need no second proof (accounts/confirmation.ts), or null. */
  releaseConfirmedUntil: Date | null;
}

/**
 * The device a sign-in came from: `label` the text it named itself by (shown, never trusted), `key` the hash of the
 * random id it keeps (`deviceKeyOf`), or null when it sent none.
 */
export type SignInDevice = { label: string; key: string | null };

/** The device id a sign-in sent as it is stored and compared: hashed like a token, so a copy of the table replays none. */
export const deviceKeyOf = (deviceId: string | undefined): string | null => (deviceId === undefined ? null : hashToken(deviceId));

export interface Sessions {
  /**
   * Signs a user in on a device. The bearer token and websocket token exist in clear only in the
   * returned payload; the database keeps their hashes. Takes the transaction the caller is in. `client` is the
   * address the sign-in came from (clientAddress), shown in the sign-in history.
   */
  open(
    tx: Queryable,
    user: { id: string; username: string; email: string; role: UserRole },
    device: SignInDevice,
    client: string,
  ): Promise<SessionResponse>;
  /** The live session behind a bearer token, or undefined (unknown, revoked or idle too long). */
  resolve(token: string): Promise<AuthSession | undefined>;
  /**
   * The live session behind a realtime credential: its websocket token, or the bearer token itself
   * (docs/api.md "Realtime"). Does not count as use of the session.
   */
  resolveRealtime(token: string): Promise<AuthSession | undefined>;
  /** Ends one session (logout), and says so (`ended`). */
  revoke(sessionId: string): Promise<void>;
  /**
   * These sessions just ended: called right after the commit that ended them, before anything else is published,
   * so that what they held in this process (the realtime sockets tied to them) is gone before another event could
   * reach it. Every process also hears of every ending, the command line's too, from the database (migration 022).
   */
  ended(sessionIds: readonly string[]): void;
  /** Listens to `ended` (the realtime server). */
  onEnded(listener: (sessionIds: readonly string[]) => void): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    sessions: Sessions;
    /** The private scope's preHandler: refuses with 401 "Session expired" unless a live session calls. */
    requireSession: preHandlerAsyncHookHandler;
    /**
     * A moderator's calls: the session and the role as stored now (one taken back counts at once), checked as the
     * request arrives, before the body is read, so a trader learns nothing of the call, not even which bodies it takes.
     */
    requireModerator: preHandlerAsyncHookHandler;
    /** An operator's calls (docs/operators.md): as `requireModerator`, for the operator role. */
    requireOperator: preHandlerAsyncHookHandler;
    /**
     * A trader's calls (offers, trades, chat, wallets): a session whose role trades. An operator holds nothing and
     * trades nothing (docs/operators.md), so their session is refused here as the request arrives.
     */
    requireTrader: preHandlerAsyncHookHandler;
    /** pusher-js's channel authorization: the websocket token (or the session token) as the bearer token. */
    requireRealtimeSession: preHandlerAsyncHookHandler;
  }
  interface FastifyRequest {
    session: AuthSession | null;
  }
}

/** Writing last use on every call would make every read a write; once a minute is precise enough for "last used". */
const TOUCH_INTERVAL_MS = 60_000;
const DAY_MS = 86_400_000;

/** Sessions last used at or before this are idle-expired: no token of theirs signs in any more. */
export const idleLimitOf = (now: Date, sessionIdleDays: number): Date => new Date(now.getTime() - sessionIdleDays * DAY_MS);

export const BEARER = /^Bearer\s+([A-Za-z0-9_-]{1,200})\s*$/i;

export const sessionExpired = () => refuse.sessionExpired();

/** The session of a request in the private scope; a route outside it asking for one is a wiring bug, answered as 401. */
export function signedIn(request: FastifyRequest): AuthSession {
  if (!request.session) throw sessionExpired();
  return request.session;
}

/** The signed-in moderator or operator as the audit log names whoever acted (docs/operators.md "Audit log"). */
export function signedInStaff(request: FastifyRequest): StaffMember {
  const { userId: id, username, role } = signedIn(request);
  return { id, username, role };
}

/** The signed-in caller as the account protections take it: the session, and the address it calls from. */
export function signedInCaller(request: FastifyRequest): Caller {
  const session = signedIn(request);
  return { sessionId: session.id, userId: session.userId, client: clientAddress(request) };
}

const sessionOf = (found: SessionLookup): AuthSession => ({
  id: found.session_id,
  userId: found.user_id,
  username: found.username,
  email: found.email,
  role: found.role,
  releaseConfirmedUntil: found.release_confirmed_until,
});

/** Tier 2: sessions — opaque tokens, stored hashed, with device, last use and revocation. */
export const authPlugin = shared('peerex-auth', async (app) => {
  const endedListeners = new Set<(sessionIds: readonly string[]) => void>();
  const sessions: Sessions = {
    async open(tx, user, device, client) {
      const token = newToken();
      const websocketToken = newToken();
      await sessionsRepository(tx).insert({
        userId: user.id,
        tokenHash: hashToken(token),
        websocketTokenHash: hashToken(websocketToken),
        device: device.label,
        deviceKey: device.key,
        clientAddress: client,
        now: app.now(),
      });
      return { token, user: { username: user.username, email: user.email, websocket_token: websocketToken, role: user.role } };
    },

    async resolve(token) {
      const repo = sessionsRepository(app.db);
      const found = await repo.findLive(hashToken(token));
      if (!found) return undefined;
      const now = app.now();
      const idleLimit = idleLimitOf(now, app.config.sessionIdleDays);
      if (found.last_used_at <= idleLimit) return undefined;
      if (now.getTime() - found.last_used_at.getTime() >= TOUCH_INTERVAL_MS) {
        await repo.touch(found.session_id, now, new Date(now.getTime() - TOUCH_INTERVAL_MS));
      }
      return sessionOf(found);
    },

    async resolveRealtime(token) {
      const found = await sessionsRepository(app.db).findLiveByWebsocketToken(hashToken(token));
      if (!found) return sessions.resolve(token);
      const idleLimit = idleLimitOf(app.now(), app.config.sessionIdleDays);
      if (found.last_used_at <= idleLimit) return undefined;
      return sessionOf(found);
    },

    async revoke(sessionId) {
      if (await sessionsRepository(app.db).revoke(sessionId, app.now())) sessions.ended([sessionId]);
    },

    ended(sessionIds) {
      if (sessionIds.length === 0) return;
      for (const listener of endedListeners) {
        try {
          listener(sessionIds);
        } catch (error) {
          // The session has ended whatever a listener does; the database's NOTIFY reaches it too.
          app.log.error({ err: error }, 'a listener of ended sessions failed');
        }
      }
    },

    onEnded(listener) {
      endedListeners.add(listener);
    },
  };

  app.decorate('sessions', sessions);
  app.decorateRequest('session', null);
  app.decorate('requireSession', async function requireSession(request: FastifyRequest) {
    const match = BEARER.exec(request.headers.authorization ?? '');
    const session = match?.[1] ? await sessions.resolve(match[1]) : undefined;
    if (!session) throw sessionExpired();
    request.session = session;
  });
  app.decorate('requireModerator', async function requireModerator(request: FastifyRequest, reply: FastifyReply) {
    await app.requireSession.call(app, request, reply);
    if (signedIn(request).role !== 'moderator') throw refuse.moderatorsOnly();
  });
  app.decorate('requireOperator', async function requireOperator(request: FastifyRequest, reply: FastifyReply) {
    await app.requireSession.call(app, request, reply);
    if (signedIn(request).role !== 'operator') throw refuse.operatorsOnly();
  });
  app.decorate('requireTrader', async function requireTrader(request: FastifyRequest, reply: FastifyReply) {
    await app.requireSession.call(app, request, reply);
    if (signedIn(request).role === 'operator') throw refuse.operatorsDoNotTrade();
  });
  app.decorate('requireRealtimeSession', async function requireRealtimeSession(request: FastifyRequest) {
    const match = BEARER.exec(request.headers.authorization ?? '');
    const session = match?.[1] ? await sessions.resolveRealtime(match[1]) : undefined;
    if (!session) throw sessionExpired();
    request.session = session;
  });
});
