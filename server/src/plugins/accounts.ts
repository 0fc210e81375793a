import { accountsService, type AccountsService } from '../accounts/accounts.ts';
import { shared } from './shared.ts';

declare module 'fastify' {
  interface FastifyInstance {
    accounts: AccountsService;
  }
}

/** Tier 2 (after sessions, lockouts, codes and two-factor): the account rules the security calls use. */
export const accountsPlugin = shared('peerex-accounts', async (app) => {
  app.decorate(
    'accounts',
    accountsService({
      db: app.db,
      now: app.now,
      keys: app.keys,
      passwords: app.passwords,
      mailer: app.mailer,
      sessions: app.sessions,
      loginGuard: app.loginGuard,
      emailCodes: app.emailCodes,
      twoFactor: app.twoFactor,
      // Decorated later (tier 3, after realtime and push); reached only when a request runs.
      announce: (rows) => app.notifications.announce(rows),
    }),
  );
});
