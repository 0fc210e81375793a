import type { z } from 'zod/mini';
import type {
  LoginResponse,
  loginRequest,
  RecoveryCodesResponse,
  registerRequest,
  resetPasswordRequest,
  SessionResponse,
  twoFactorLoginRequest,
} from '../../../contracts/security.ts';
import { uniqueViolation, type Db, type Queryable } from '../infra/db/db.ts';
import { securityMail, type SecurityEvent } from './account-mails.ts';
import { codeMail, type Mail } from '../infra/mail.ts';
import type { PasswordHasher } from '../infra/passwords.ts';
import { notify, type Notified } from '../notifications/notify.ts';
import { securityTexts } from '../notifications/texts.ts';
import { hashToken, newToken, type AppKeys } from '../infra/secrets.ts';
import { newTotpSecret, totpUri } from './totp.ts';
import { deviceKeyOf, type SignInDevice, type Sessions } from './sessions.plugin.ts';
import { EMAIL_CODE_RULES, type EmailCodes } from './email-codes.plugin.ts';
import { accountKey, type LoginGuard, type SignInAttempt } from './login-guard.plugin.ts';
import type { Mailer } from '../infra/mail.plugin.ts';
import { proofOf, type SecondFactorProof, type TwoFactor } from './two-factor.plugin.ts';
import type { Refusal } from '../refusals.ts';
import { emailCodesRepository } from './email-codes.repository.ts';
import { pushRepository } from '../push/push.repository.ts';
import { recoveryCodesRepository } from './recovery-codes.repository.ts';
import { sessionsRepository } from './sessions.repository.ts';
import { twoFactorChallengesRepository } from './two-factor-challenges.repository.ts';
import { usersRepository, type UserRow } from './users.repository.ts';
import { refuse, sentences } from '../sentences.ts';
import { isReservedUsername } from './roles.ts';

/** The sign-in attempt between a correct password and the second factor: how long it lives, how many codes it takes. */
export const SIGN_IN_CHALLENGE = Object.freeze({ lifetimeMs: 5 * 60_000, maxTries: 5 });
/** Register accepts an address verified through validate_email this recently. */
export const EMAIL_VERIFICATION_VALID_MS = 30 * 60_000;

export interface AccountsDeps {
  db: Db;
  now: () => Date;
  keys: AppKeys;
  passwords: PasswordHasher;
  mailer: Mailer;
  sessions: Sessions;
  loginGuard: LoginGuard;
  emailCodes: EmailCodes;
  twoFactor: TwoFactor;
  /** After the commit: the security notifications a change wrote, live and to the push worker (never throws). */
  announce: (rows: readonly Notified[]) => Promise<void>;
}

type SignInAsk = z.output<typeof loginRequest>;
type SecondFactorAsk = z.output<typeof twoFactorLoginRequest>;
type RegisterAsk = z.output<typeof registerRequest>;
type ResetAsk = Extract<z.output<typeof resetPasswordRequest>, { type: 'reset' }>;
/** Who is asking to change their own account's security, from where. */
type Owner = { userId: string; client: string };
type Proof = { code: string; password: string };

type SecondStep =
  | { kind: 'signedIn'; session: SessionResponse; notified: Notified[]; newSignIn: boolean; recoveryCodesLeft?: number }
  /** The attempt is over; `failed` when a wrong code ended it, which counts towards the lockout. */
  | { kind: 'over'; refusal: Refusal; failed: boolean }
  | { kind: 'refused'; refusal: Refusal };

/** Why a second factor was refused, in the words for the kind of code the trader typed. */
const secondFactorRefusal = (proof: SecondFactorProof, reason: 'invalid' | 'replayed'): Refusal => {
  if (reason === 'replayed') return refuse.authenticatorCodeUsed();
  return proof.kind === 'recovery' ? refuse.invalidRecoveryCode() : refuse.invalidAuthenticatorCode();
};

/**
 * Ends everything a user is signed in with, in the caller's transaction (a password reset; an operator's suspension,
 * forced reset or "end sessions", docs/operators.md "Traders and suspension"): every session, whose sockets close and
 * whose push devices are unbound with it (migration 022), and every push device bound to the account (the owner's
 * browsers bind again at their next sign-in); with `closeSignIns`, every half-finished two-factor sign-in too.
 * Answers the ended sessions' ids: the caller hands them to `sessions.ended` right after the commit.
 */
export async function endEverySession(tx: Queryable, userId: string, now: Date, options: { closeSignIns: boolean }): Promise<string[]> {
  const ended = await sessionsRepository(tx).revokeAllOfUser(userId, now);
  // Whoever held those sessions signs in as new, from any device or address (README "New sign-ins").
  await usersRepository(tx).disownSignIns(userId, now);
  if (options.closeSignIns) await twoFactorChallengesRepository(tx).closeAllOfUser(userId, now);
  await pushRepository(tx).unbindUser(userId);
  return ended;
}

/**
 * The password again before a change a stolen session must not make (two-factor, the account protections); a
 * wrong one is refused before any code is looked at (or spent) and counts towards the sign-in lockout, so a
 * session cannot grind passwords.
 */
export function passwordCheck({ loginGuard, passwords }: Pick<AccountsDeps, 'loginGuard' | 'passwords'>) {
  return async (user: UserRow, password: string, attempt: SignInAttempt): Promise<void> => {
    await loginGuard.assertOpen(attempt);
    if (!(await passwords.verify(user.password_hash, password))) {
      await loginGuard.recordFailure(attempt);
      throw refuse.wrongPassword();
    }
  };
}

/**
 * The account rules (docs/rules.md "Accounts"): sign-in with its lockouts and second factor, signup, password
 * reset and the two-factor settings. It decides and refuses in its own terms (refusals.ts); the routes only
 * parse, call and reply.
 */
export function accountsService(deps: AccountsDeps) {
  const { db, loginGuard, twoFactor } = deps;
  const tellOwner = (owner: { email: string; username: string }, event: SecurityEvent) =>
    deps.mailer.sendInBackground(securityMail(owner, event, deps.now()));

  /** A signed-in user as the security settings need them; a session whose user is gone is no session. */
  async function ownerRow(userId: string): Promise<UserRow> {
    const user = await usersRepository(db).findById(userId);
    if (!user) throw refuse.sessionExpired();
    return user;
  }

  const assertPassword = passwordCheck(deps);

  /**
   * Opens the session of a sign-in that passed every step, in the caller's transaction. Only a new sign-in writes
   * "New sign-in" (README "New sign-ins"): one from a device or an address this account has not signed in from
   * since its credentials last changed, asked before this sign-in's own session is written. The session is
   * written either way: the sign-in history keeps every sign-in.
   */
  async function openSignIn(tx: Queryable, user: UserRow, device: SignInDevice, client: string) {
    const seen = await sessionsRepository(tx).seenBefore(user.id, device.key, client);
    const session = await deps.sessions.open(tx, user, device, client);
    const known = seen.device && seen.address;
    const notified = known ? [] : await notify(tx, [securityTexts.signIn(user.id, device.label, client)], deps.now());
    return { session, notified, newSignIn: !known };
  }

  /** After the commit: a new sign-in's notification goes out live, and the owner is mailed (the bell can be cleared by whoever signed in). */
  async function tellOfSignIn(owner: { email: string; username: string }, signedIn: { notified: Notified[]; newSignIn: boolean }, client: string) {
    await deps.announce(signedIn.notified);
    if (signedIn.newSignIn) tellOwner(owner, { kind: 'newSignIn', client });
  }

  /**
   * A change to an account with two-factor on, made only with the password again and a second factor of
   * the account's own (an authenticator or recovery code), which the change's transaction spends.
   */
  async function withSecondFactor<T>(
    { userId, client }: Owner,
    proof: Proof,
    change: (tx: Queryable, userId: string) => Promise<T>,
  ): Promise<{ user: UserRow; result: T }> {
    const user = await ownerRow(userId);
    const secret = user.totp_secret;
    if (secret === null) throw refuse.twoFactorNotOn();
    const attempt = { key: accountKey(user, user.username), client };
    await assertPassword(user, proof.password, attempt);
    const second = proofOf(proof.code);
    const outcome = await db.transaction(async (tx) => {
      const spent = await twoFactor.spend(tx, { id: user.id, totp_secret: secret }, second);
      return spent.ok ? { ok: true as const, result: await change(tx, user.id) } : spent;
    });
    if (!outcome.ok) return refuseSecondFactor(attempt, second, outcome.reason);
    return { user, result: outcome.result };
  }

  /** A wrong second factor counts towards the lockout like a wrong password. */
  async function refuseSecondFactor(attempt: SignInAttempt, proof: SecondFactorProof, reason: 'invalid' | 'replayed'): Promise<never> {
    await loginGuard.recordFailure(attempt);
    throw secondFactorRefusal(proof, reason);
  }

  return {
    /**
     * The password step of signing in: the username (or email) and password. Unknown names and wrong passwords
     * get the same sentence after the same argon2 work; with two-factor on, the answer is an interim token for
     * `completeSignIn` instead of a session.
     */
    async signIn(ask: SignInAsk, client: string): Promise<LoginResponse> {
      const users = usersRepository(db);
      const user = await users.findByLogin(ask.username);
      const attempt = { key: accountKey(user, ask.username), client };
      await loginGuard.assertOpen(attempt);

      const passwordOk = await deps.passwords.verify(user?.password_hash, ask.password);
      if (!user || !passwordOk) {
        await loginGuard.recordFailure(attempt);
        throw refuse.invalidCredentials();
      }
      // Said only to whoever has the password, so the sentence tells no one else the account is suspended.
      if (user.suspended_at !== null) throw refuse.signInSuspended();
      if (deps.passwords.needsRehash(user.password_hash)) {
        await users.setPasswordHash(user.id, await deps.passwords.hash(ask.password));
      }

      if (user.totp_secret !== null) {
        // Failures are forgiven only after the second factor, which counts towards the same lockout.
        const token = newToken();
        const now = deps.now();
        await twoFactorChallengesRepository(db).insert({
          userId: user.id,
          tokenHash: hashToken(token),
          device: ask.device,
          deviceKey: deviceKeyOf(ask.device_id),
          now,
          expiresAt: new Date(now.getTime() + SIGN_IN_CHALLENGE.lifetimeMs),
        });
        return { two_factor: true, token, user: { username: user.username } };
      }

      await loginGuard.clear(attempt);
      const device = { label: ask.device, key: deviceKeyOf(ask.device_id) };
      const signedIn = await db.transaction((tx) => openSignIn(tx, user, device, client));
      await tellOfSignIn(user, signedIn, client);
      return { two_factor: false, ...signedIn.session };
    },

    /**
     * The second step: the interim token with the authenticator code, or with a recovery code (spent by signing
     * in; the owner is mailed). An attempt that expired, was used or ran out of tries is over (SignInExpired):
     * only the password step again goes on.
     */
    async completeSignIn(ask: SecondFactorAsk, client: string): Promise<SessionResponse> {
      const now = deps.now();
      const tokenHash = hashToken(ask.token);
      const proof: SecondFactorProof =
        ask.recovery_code !== undefined ? { kind: 'recovery', code: ask.recovery_code } : { kind: 'authenticator', code: ask.code ?? '' };

      const pending = await twoFactorChallengesRepository(db).findOpen(tokenHash, now);
      if (!pending) throw refuse.signInExpired();
      const attempt = { key: accountKey({ id: pending.user_id }, ''), client };
      await loginGuard.assertOpen(attempt);

      // The challenge row stays locked while the code is checked, so concurrent guesses are counted one by one.
      // Inside the transaction only `tx` may be used: PGlite has one connection, and the transaction holds it.
      const step = await db.transaction(async (tx): Promise<SecondStep> => {
        const challenges = twoFactorChallengesRepository(tx);
        const challenge = await challenges.lockOpen(tokenHash, now);
        if (!challenge) return { kind: 'over', refusal: refuse.signInExpired(), failed: false };
        const user = await usersRepository(tx).findById(challenge.user_id);
        if (!user?.totp_secret) {
          // Two-factor was switched off since the password step: the interim token no longer means anything.
          await challenges.close(challenge.id, now);
          return { kind: 'over', refusal: refuse.signInExpired(), failed: false };
        }
        if (user.suspended_at !== null) {
          // Suspended since the password step: this attempt signs no one in (docs/operators.md "Traders and suspension").
          await challenges.close(challenge.id, now);
          return { kind: 'over', refusal: refuse.signInSuspended(), failed: false };
        }
        const outcome = await twoFactor.spend(tx, { id: user.id, totp_secret: user.totp_secret }, proof);
        if (outcome.ok) {
          await challenges.close(challenge.id, now);
          // The second step's own device id if it sent one, else the password step's (as with the label).
          const device = { label: ask.device || challenge.device, key: deviceKeyOf(ask.device_id) ?? challenge.device_key };
          const signedIn = await openSignIn(tx, user, device, client);
          const left = outcome.kind === 'recovery' ? await recoveryCodesRepository(tx).left(user.id) : undefined;
          return { kind: 'signedIn', ...signedIn, ...(left === undefined ? {} : { recoveryCodesLeft: left }) };
        }
        const { failed_attempts } = await challenges.recordFailure(challenge.id);
        if (failed_attempts >= SIGN_IN_CHALLENGE.maxTries) {
          await challenges.close(challenge.id, now);
          return { kind: 'over', refusal: refuse.tooManyAuthenticatorCodes(), failed: true };
        }
        return { kind: 'refused', refusal: secondFactorRefusal(proof, outcome.reason) };
      });

      if (step.kind !== 'signedIn') {
        // A wrong second factor counts towards the account's lockout like a wrong password; so does the one
        // that used up the attempt's tries.
        if (step.kind === 'refused' || step.failed) await loginGuard.recordFailure(attempt);
        throw step.refusal;
      }
      await loginGuard.clear(attempt);
      await tellOfSignIn(step.session.user, step, client);
      if (step.recoveryCodesLeft !== undefined) tellOwner(step.session.user, { kind: 'recoveryCodeUsed', left: step.recoveryCodesLeft });
      return step.session;
    },

    /**
     * Signup's first step: mails a code to an address that has no account yet. Signup may say that an address
     * is taken (the flow cannot go on otherwise); password reset never does.
     */
    async requestSignupCode(email: string): Promise<string> {
      if (await usersRepository(db).emailExists(email)) throw refuse.emailTaken();
      const code = await deps.emailCodes.issue(email, 'signup');
      await send(codeMail('signup', email, code, EMAIL_CODE_RULES.validMinutes));
      return sentences.codeSent(email);
    },

    /** Signup's second step: the mailed code proves the address, which register then accepts for a while. */
    async verifySignupCode(email: string, code: string): Promise<string> {
      await deps.emailCodes.redeem(email, 'signup', code, (tx) => emailCodesRepository(tx).markVerified(email, deps.now()));
      return sentences.emailVerified;
    },

    /** Creates the account on a freshly verified email and signs it in from `client` (clientAddress). */
    async register(ask: RegisterAsk, client: string): Promise<SessionResponse> {
      const now = deps.now();
      const users = usersRepository(db);
      // The chat shows a moderator's messages as from "Moderator", and lists show names without a badge: no trader
      // may take a name that reads as staff (docs/rules.md "Look-alike names").
      if (isReservedUsername(ask.username)) throw refuse.usernameReserved();
      const verifiedSince = new Date(now.getTime() - EMAIL_VERIFICATION_VALID_MS);
      if (!(await emailCodesRepository(db).isVerifiedSince(ask.email, verifiedSince))) {
        throw refuse.emailNotVerified();
      }
      if (await users.emailExists(ask.email)) throw refuse.emailTaken();
      if (await users.usernameExists(ask.username)) throw refuse.usernameTaken();

      // Hash before the transaction: argon2 takes tens of milliseconds and needs no lock.
      const passwordHash = await deps.passwords.hash(ask.password);
      try {
        return await db.transaction(async (tx) => {
          const user = await usersRepository(tx).insert({ username: ask.username, email: ask.email, passwordHash, now });
          await emailCodesRepository(tx).consumeVerification(ask.email);
          // Signing up is the account's first sign-in, from this device and address: a sign-in from both later is
          // not new (README "New sign-ins"). Nobody is told: the owner is the one signing up.
          return deps.sessions.open(tx, user, { label: ask.device, key: deviceKeyOf(ask.device_id) }, client);
        });
      } catch (error) {
        // Two registrations racing past the checks above: the unique indexes decide, with the same sentences.
        const constraint = uniqueViolation(error);
        if (constraint === 'users_email_key') throw refuse.emailTaken();
        if (constraint === 'users_username_key') throw refuse.usernameTaken();
        throw error;
      }
    },

    /**
     * Password reset's first step. Nothing in the answer, its timing or the limits tells whether an address has
     * an account: every address gets a code stored (only real accounts get it mailed, in the background), so a
     * guessed address behaves exactly like a real one whose mail was not read.
     */
    async requestPasswordReset(email: string): Promise<string> {
      const code = await deps.emailCodes.issue(email, 'reset');
      if (await usersRepository(db).findByEmail(email)) {
        deps.mailer.sendInBackground(codeMail('reset', email, code, EMAIL_CODE_RULES.validMinutes));
      }
      return sentences.resetCodeSent(email);
    },

    /** Sets the new password with the mailed code; every session and half-finished sign-in of the user ends. */
    async resetPassword(ask: ResetAsk): Promise<string> {
      const userId = await deps.emailCodes.redeem(ask.email, 'reset', ask.code, async (tx) => (await usersRepository(tx).findByEmail(ask.email))?.id);
      // Only reachable by guessing the never-mailed code of an address without an account.
      if (userId === undefined) throw refuse.invalidCode();

      const passwordHash = await deps.passwords.hash(ask.password);
      const now = deps.now();
      const { notified, ended } = await db.transaction(async (tx) => {
        await usersRepository(tx).replacePassword(userId, passwordHash, now);
        // Whoever held the old password may hold a session, be halfway through two-factor or have bound their own
        // browser to the account's web pushes: all of it ends (the tokens issued before now bind nothing, device-api.ts).
        const endedSessions = await endEverySession(tx, userId, now, { closeSignIns: true });
        return { notified: await notify(tx, [securityTexts.passwordChanged(userId)], now), ended: endedSessions };
      });
      // The ended sessions' sockets close before "Password changed" is published, so only the new password hears it.
      deps.sessions.ended(ended);
      await deps.announce(notified);
      // The owner proved control of the mailbox: earlier failed sign-ins no longer count against them.
      await loginGuard.forgive(accountKey({ id: userId }, ''));
      return sentences.passwordReset;
    },

    /** Ends the calling session only; the trader's other devices stay signed in. */
    async signOut(sessionId: string): Promise<string> {
      await deps.sessions.revoke(sessionId);
      return sentences.loggedOut;
    },

    async twoFactorStatus(userId: string): Promise<{ enabled: boolean; recovery_codes_left: number }> {
      const user = await ownerRow(userId);
      const enabled = user.totp_secret !== null;
      return { enabled, recovery_codes_left: enabled ? await twoFactor.recoveryCodesLeft(user.id) : 0 };
    },

    /** A pending secret for the authenticator app; two-factor is on only once `enableTwoFactor` proves it. */
    async startTwoFactorSetup(userId: string): Promise<{ secret: string; otpauth_url: string }> {
      const user = await ownerRow(userId);
      if (user.totp_secret !== null) throw refuse.twoFactorAlreadyOn();
      const secret = newTotpSecret();
      await usersRepository(db).setPendingTotpSecret(user.id, deps.keys.seal(secret));
      return { secret, otpauth_url: totpUri(secret, user.username) };
    },

    /**
     * Two-factor on: the password again, and a code of the pending secret. Answers the recovery codes, in clear
     * for this once; the owner is mailed.
     */
    async enableTwoFactor({ userId, client }: Owner, proof: Proof): Promise<RecoveryCodesResponse> {
      const user = await ownerRow(userId);
      if (user.totp_secret !== null) throw refuse.twoFactorAlreadyOn();
      if (user.totp_pending_secret === null) throw refuse.twoFactorSetupFirst();
      const attempt = { key: accountKey(user, user.username), client };
      await assertPassword(user, proof.password, attempt);
      const outcome = await twoFactor.check(user.totp_pending_secret, proof.code);
      if (!outcome.ok) return refuseSecondFactor(attempt, { kind: 'authenticator', code: proof.code }, outcome.reason);
      const { codes, notified } = await db.transaction(async (tx) => {
        await usersRepository(tx).enableTotp(user.id, outcome.step, deps.now());
        return {
          codes: await twoFactor.renewRecoveryCodes(tx, user.id),
          notified: await notify(tx, [securityTexts.twoFactorChanged(user.id, true)], deps.now()),
        };
      });
      await deps.announce(notified);
      tellOwner(user, { kind: 'twoFactorOn' });
      return { message: sentences.twoFactorEnabled, recovery_codes: codes };
    },

    /** Two-factor off: the password again, and an authenticator code or (phone lost) a recovery code. */
    async disableTwoFactor(owner: Owner, proof: Proof): Promise<string> {
      const { user, result: notified } = await withSecondFactor(owner, proof, async (tx, userId) => {
        await usersRepository(tx).disableTotp(userId, deps.now());
        await recoveryCodesRepository(tx).removeAll(userId);
        return notify(tx, [securityTexts.twoFactorChanged(userId, false)], deps.now());
      });
      await deps.announce(notified);
      tellOwner(user, { kind: 'twoFactorOff' });
      return sentences.twoFactorDisabled;
    },

    /** A new set of recovery codes (the old ones stop working), with the password and a code of the account's own. */
    async renewRecoveryCodes(owner: Owner, proof: Proof): Promise<RecoveryCodesResponse> {
      const { user, result: codes } = await withSecondFactor(owner, proof, (tx, userId) => twoFactor.renewRecoveryCodes(tx, userId));
      tellOwner(user, { kind: 'recoveryCodesRenewed' });
      return { message: sentences.recoveryCodesRenewed, recovery_codes: codes };
    },
  };

  /** A mail the request waits for (signup's code): a transport failure is the mail server's, said in words. */
  async function send(mail: Mail): Promise<void> {
    try {
      await deps.mailer.send(mail);
    } catch (error) {
      throw Object.assign(refuse.mailFailed(), { cause: error });
    }
  }
}

export type AccountsService = ReturnType<typeof accountsService>;
