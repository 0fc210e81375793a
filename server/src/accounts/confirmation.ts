import type { ConfirmationProof } from '../../../contracts/security.ts';
import type { ReleaseProof } from '../../../contracts/trade.ts';
import type { Db } from '../infra/db/db.ts';
import type { PasswordHasher } from '../infra/passwords.ts';
import { accountKey, type LoginGuard } from './login-guard.plugin.ts';
import type { TwoFactor } from './two-factor.plugin.ts';
import { sessionsRepository, type ConfirmationRow } from './sessions.repository.ts';
import { refuse } from '../sentences.ts';

/** How long one proof covers the releases of the session that gave it (docs/rules.md "Trades"). */
export const CONFIRMATION_WINDOW_MINUTES = 10;
const MINUTE_MS = 60_000;

export interface ConfirmationDeps {
  db: Db;
  now: () => Date;
  passwords: PasswordHasher;
  loginGuard: LoginGuard;
  twoFactor: TwoFactor;
}

/**
 * Who proves: their session (the window is the session's), and the address they call from (the lockout's). With
 * `releaseConfirmedUntil`, the window as this request's session lookup read it: while it is open nothing more is
 * read (a busy seller's release is one read fewer).
 */
export interface Confirmer {
  sessionId: string;
  client: string;
  releaseConfirmedUntil?: Date | null;
}

/**
 * Whether the window as the request's session lookup read it (`Confirmer.releaseConfirmedUntil`) is open at `now`:
 * then `confirm` passes without reading or checking anything, whatever the proof says.
 */
export const windowOpenAsRead = (who: Confirmer, now: Date): boolean =>
  who.releaseConfirmedUntil !== undefined && who.releaseConfirmedUntil !== null && who.releaseConfirmedUntil > now;

/** The proof the account asks for: the authenticator code with two-factor on, else the password. */
const proofKind = (row: Pick<ConfirmationRow, 'totp_secret'>): ConfirmationProof => (row.totp_secret === null ? 'password' : 'code');
const AUTHENTICATOR_CODE = /^\d{6}$/;

/**
 * The second proof before releasing escrow (docs/rules.md "Trades", "Releasing needs a second proof"): a
 * session alone must not be able to send an account's coins away. A proof that succeeds opens a window of
 * CONFIRMATION_WINDOW_MINUTES for that session, as GitHub's "sudo mode" does, in which further releases need
 * none: a busy seller is not asked at each release, and the server does not hash a password per release. A
 * wrong proof counts towards the sign-in lockout exactly as the password checks of the security settings do
 * (accounts.ts passwordCheck), so a stolen session cannot grind passwords or codes here either.
 */
export function confirmationService(deps: ConfirmationDeps) {
  const { db, loginGuard } = deps;
  const isOpen = (row: Pick<ConfirmationRow, 'release_confirmed_until'>, now: Date) =>
    row.release_confirmed_until !== null && row.release_confirmed_until > now;

  async function rowOf(sessionId: string): Promise<ConfirmationRow> {
    const row = await sessionsRepository(db).confirmation(sessionId);
    if (!row) throw refuse.sessionExpired();
    return row;
  }

  /** Checks the proof the account asks for; answers whether it holds, and whether a code was one already spent. */
  async function check(row: ConfirmationRow, given: string): Promise<{ ok: boolean; replayed: boolean }> {
    if (row.totp_secret === null) return { ok: await deps.passwords.verify(row.password_hash, given), replayed: false };
    // Only an authenticator code: a recovery code is for a lost phone, not for sending coins away.
    if (!AUTHENTICATOR_CODE.test(given)) return { ok: false, replayed: false };
    const spent = await deps.twoFactor.spend(db, { id: row.user_id, totp_secret: row.totp_secret }, { kind: 'authenticator', code: given });
    return spent.ok ? { ok: true, replayed: false } : { ok: false, replayed: spent.reason === 'replayed' };
  }

  return {
    /** What a release by this session asks for now: null while its window is open (security/confirmation/ `status`). */
    async status(sessionId: string): Promise<{ proof: ConfirmationProof | null }> {
      const row = await rowOf(sessionId);
      return { proof: isOpen(row, deps.now()) ? null : proofKind(row) };
    },

    /**
     * Passes while the session's window is open, whatever `proof` holds (it is not checked: nothing is hashed);
     * otherwise checks the proof the account asks for and opens the window. While the account is locked out
     * from this address, refuses with the lockout's 429 before looking at the proof; then with 403 and the
     * sentence naming the proof the account uses when it is missing or wrong (a wrong one counted towards the
     * lockout).
     */
    async confirm(who: Confirmer, proof: ReleaseProof): Promise<void> {
      if (windowOpenAsRead(who, deps.now())) return;
      const row = await rowOf(who.sessionId);
      if (isOpen(row, deps.now())) return;
      const kind = proofKind(row);
      const asked = kind === 'code' ? refuse.confirmReleaseWithCode : refuse.confirmReleaseWithPassword;
      const given = (kind === 'code' ? proof.code?.trim() : proof.password) ?? '';
      const attempt = { key: accountKey({ id: row.user_id }, row.username), client: who.client };
      await loginGuard.assertOpen(attempt);
      // Nothing typed is no guess: not counted.
      if (given === '') throw asked();
      const { ok, replayed } = await check(row, given);
      if (!ok) {
        await loginGuard.recordFailure(attempt);
        throw replayed ? refuse.releaseCodeUsed() : asked();
      }
      await sessionsRepository(db).confirmRelease(who.sessionId, new Date(deps.now().getTime() + CONFIRMATION_WINDOW_MINUTES * MINUTE_MS));
    },
  };
}

export type ConfirmationService = ReturnType<typeof confirmationService>;
