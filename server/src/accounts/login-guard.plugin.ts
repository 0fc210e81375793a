import { refuse } from '../sentences.ts';
import { securityMail } from './account-mails.ts';
import { loginFailuresRepository, WHOLE_ACCOUNT } from './login-failures.repository.ts';
import { usersRepository } from './users.repository.ts';
import { shared } from '../infra/shared.ts';

/**
 * Which account a sign-in attempt is against. A name that matches no account gets a key of its own,
 * so that it fails, counts and locks exactly like a real account and the lockout reveals nothing.
 */
export const accountKey = (user: { id: string } | undefined, typedName: string): string =>
  user ? `user:${user.id}` : `name:${typedName.trim().toLowerCase()}`;

const USER_KEY = /^user:(\d+)$/;

/** One sign-in attempt: against which account, from which client address (infra/http/client-address.ts). */
export interface SignInAttempt {
  key: string;
  client: string;
}

export interface LoginGuard {
  /** Refuses (429) while this address is locked out of this account, or the whole account is locked. */
  assertOpen(attempt: SignInAttempt): Promise<void>;
  /**
   * Counts a failed password or authenticator code. The one that reaches LOGIN_LOCKOUT_FAILURES from this
   * address locks this address out of the account; the one that reaches LOGIN_ACCOUNT_FAILURES_PER_HOUR
   * from all addresses locks the account for an hour and mails its owner.
   */
  recordFailure(attempt: SignInAttempt): Promise<void>;
  /** A successful sign-in forgives this address's earlier failures (the account's hourly count stays). */
  clear(attempt: SignInAttempt): Promise<void>;
  /** A password reset: the owner proved control of the mailbox, so every failure and lock of the account goes. */
  forgive(key: string): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    loginGuard: LoginGuard;
  }
}

const MINUTE_MS = 60_000;
/** The account-wide ceiling counts over an hour, and a lock it starts lasts as long: by its end, every failure that caused it has left the count. */
export const ACCOUNT_WINDOW_MS = 60 * MINUTE_MS;

/** Tier 2 (after mail): sign-in lockouts per (account, client address), and per account across addresses. */
export const loginGuardPlugin = shared('peerex-login-guard', async (app) => {
  // A pair's lock lasts as long as its window, so when it ends the failures that caused it no longer count.
  const pairWindowMs = app.config.loginLockoutMinutes * MINUTE_MS;

  const mailOwner = async (key: string, failures: number) => {
    const userId = USER_KEY.exec(key)?.[1];
    const owner = userId === undefined ? undefined : await usersRepository(app.db).findById(userId);
    if (owner) app.mailer.sendInBackground(securityMail(owner, { kind: 'signInsPaused', failures }, app.now()));
  };

  const guard: LoginGuard = {
    async assertOpen({ key, client }) {
      const now = app.now();
      const until = await loginFailuresRepository(app.db).lockedUntil(key, client, now);
      if (until) {
        throw refuse.accountLocked(Math.ceil((until.getTime() - now.getTime()) / MINUTE_MS));
      }
    },

    async recordFailure({ key, client }) {
      const now = app.now();
      const { loginLockoutFailures, loginAccountFailuresPerHour } = app.config;
      const tripped = await app.db.transaction(async (tx) => {
        const repo = loginFailuresRepository(tx);
        const counts = await repo.record({
          accountKey: key,
          client,
          at: now,
          pairSince: new Date(now.getTime() - pairWindowMs),
          accountSince: new Date(now.getTime() - ACCOUNT_WINDOW_MS),
        });
        if (counts.account >= loginAccountFailuresPerHour) {
          // Failures of requests already past assertOpen may land while the lock holds: only the one that
          // started it mails the owner.
          const started = await repo.lock(key, WHOLE_ACCOUNT, new Date(now.getTime() + ACCOUNT_WINDOW_MS), now);
          return started ? counts.account : undefined;
        }
        if (counts.pair >= loginLockoutFailures) await repo.lock(key, client, new Date(now.getTime() + pairWindowMs), now);
        return undefined;
      });
      if (tripped !== undefined) await mailOwner(key, tripped);
    },

    async clear({ key, client }) {
      await loginFailuresRepository(app.db).clearPair(key, client);
    },

    async forgive(key) {
      await loginFailuresRepository(app.db).clearAccount(key);
    },
  };
  app.decorate('loginGuard', guard);
});
