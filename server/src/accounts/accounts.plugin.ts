import { accountsService, type AccountsDeps, type AccountsService } from './accounts.ts';
import { confirmationService, type ConfirmationService } from './confirmation.ts';
import { overviewService, type OverviewService } from './overview.ts';
import { protectionsService, type ProtectionsService } from './protections.ts';
import { shared } from '../infra/shared.ts';

declare module 'fastify' {
  interface FastifyInstance {
    accounts: AccountsService;
    /** The account protections of /settings/security (sign-in history, anti-phishing code, withdrawal allowlist). */
    protections: ProtectionsService;
    /** The second proof before releasing escrow, and the window one proof opens for its session. */
    confirmation: ConfirmationService;
    /** The dashboard's figures (user/overview/). */
    overview: OverviewService;
  }
}

/** Tier 2 (after sessions, lockouts, codes and two-factor): the account rules the security calls use. */
export const accountsPlugin = shared('peerex-accounts', async (app) => {
  // Decorated later (tier 3, after realtime and push); reached only when a request runs.
  const announce: AccountsDeps['announce'] = (rows) =>
    app.notifications.announce(rows);
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
      announce,
    }),
  );
  app.decorate(
    'protections',
    protectionsService({
      db: app.db,
      now: app.now,
      passwords: app.passwords,
      loginGuard: app.loginGuard,
      mailer: app.mailer,
      sessions: app.sessions,
      sessionIdleDays: app.config.sessionIdleDays,
      announce,
    }),
  );
  app.decorate(
    'confirmation',
    confirmationService({ db: app.db, now: app.now, passwords: app.passwords, loginGuard: app.loginGuard, twoFactor: app.twoFactor }),
  );
  app.decorate('overview', overviewService(app.db));
});
