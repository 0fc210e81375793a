import { tooManyRequests } from '../http/errors.ts';
import { sentences } from '../http/sentences.ts';
import { loginFailuresRepository } from '../repositories/login-failures.ts';
import { shared } from './shared.ts';

/**
 * Which account a sign-in attempt is against. A name that matches no account gets a key of its own,
 * so that it fails, counts and locks exactly like a real account and the lockout reveals nothing.
 */
export const accountKey = (user: { id: string } | undefined, typedName: string): string =>
  user ? `user:${user.id}` : `name:${typedName.trim().toLowerCase()}`;

export interface LoginGuard {
  /** Refuses (429) while the account is locked, whatever the password. */
  assertOpen(key: string): Promise<void>;
  /** Counts a failed password or authenticator code; the one that reaches the limit starts the lockout. */
  recordFailure(key: string): Promise<void>;
  /** A successful sign-in (or a password reset) forgives earlier failures. */
  clear(key: string): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    loginGuard: LoginGuard;
  }
}

const MINUTE_MS = 60_000;

/** server-rules.md: after LOGIN_LOCKOUT_FAILURES failures in LOGIN_LOCKOUT_MINUTES, the account is locked as long. */
export const loginGuardPlugin = shared('peerex-login-guard', async (app) => {
  const windowMs = app.config.loginLockoutMinutes * MINUTE_MS;
  const guard: LoginGuard = {
    async assertOpen(key) {
      const now = app.now();
      const until = await loginFailuresRepository(app.db).lockedUntil(key, now);
      if (until) {
        throw tooManyRequests(sentences.accountLocked(Math.ceil((until.getTime() - now.getTime()) / MINUTE_MS)));
      }
    },
    async recordFailure(key) {
      const now = app.now();
      await app.db.transaction(async (tx) => {
        const repo = loginFailuresRepository(tx);
        const failures = await repo.record(key, now, new Date(now.getTime() - windowMs));
        if (failures >= app.config.loginLockoutFailures) await repo.lock(key, new Date(now.getTime() + windowMs));
      });
    },
    async clear(key) {
      await loginFailuresRepository(app.db).clear(key);
    },
  };
  app.decorate('loginGuard', guard);
});
