import { randomBytes } from 'node:crypto';
import { TRADER_PAGE_SIGN_INS, TRADER_PAGE_TRADES, type AuditAction, type TraderDossier, type TraderSearchResult } from '../../../contracts/operator.ts';
import { endEverySession } from '../accounts/accounts.ts';
import { securityMail } from '../accounts/account-mails.ts';
import { signInEntryOf } from '../accounts/protections.ts';
import { idleLimitOf, type Sessions } from '../accounts/sessions.plugin.ts';
import { sessionsRepository } from '../accounts/sessions.repository.ts';
import { auditRepository, type AuditActor } from '../audit/audit.repository.ts';
import type { Db, Queryable } from '../infra/db/db.ts';
import { transactionWithRetry } from '../infra/db/retry.ts';
import type { Mailer } from '../infra/mail.plugin.ts';
import type { PasswordHasher } from '../infra/passwords.ts';
import { fixed } from '../ledger/money.ts';
import { formatFiat, likeContains, offersService, pageOf, pageWindow } from '../offers/offers.ts';
import { refuse, sentences } from '../sentences.ts';
import { tradersRepository, type TraderRecord, type TraderRowRecord } from './traders.repository.ts';

/** The search's page. */
export const TRADER_SEARCH_PAGE_SIZE = 20;
/** The trader's page shows their newest notes, this many at most, oldest first. */
export const TRADER_PAGE_NOTES = 500;

export interface OperatorTradersDeps {
  db: Db;
  now: () => Date;
  /** SESSION_IDLE_DAYS: a session unused this long is not signed in any more (its device is not listed). */
  sessionIdleDays: number;
  passwords: PasswordHasher;
  mailer: Mailer;
  sessions: Pick<Sessions, 'ended'>;
  /** Browse Offers' cached pages are dropped (offers/offer-list-cache.plugin.ts), after a suspension paused offers. */
  offersChanged: () => Promise<void>;
}

/** The operator acting, as the session knows them. */
export type Operator = Extract<AuditActor, { id: string }>;

/** What an action did, once committed: the sessions it ended (their sockets close next) and the answer. */
interface Done {
  ended: string[];
  sentence: string;
  offersPaused?: boolean;
}

const rowOf = (row: TraderRowRecord) => ({
  username: row.username,
  email: row.email,
  role: row.role,
  joined: row.created_at.toISOString(),
  suspended: row.suspended,
  last_seen: row.last_seen?.toISOString() ?? null,
});

/**
 * The operator's traders (docs/operators.md "Traders and suspension"; POST /api/operator/traders/): the search, one
 * trader's page, notes, and the four actions on an account: suspend, reinstate, force a password reset, end their
 * sessions. Each action locks the user's row, checks, changes, and writes its audit row in one transaction; the
 * sessions it ended are told to the realtime server right after the commit.
 */
export function operatorTradersService(deps: OperatorTradersDeps) {
  const { db } = deps;

  /** The live sessions and bound push devices of a user now, as an action's before and after record them. */
  async function signedIn(q: Queryable, userId: string, now: Date) {
    const repo = tradersRepository(q);
    return {
      live_sessions: (await repo.liveSessions(userId, idleLimitOf(now, deps.sessionIdleDays))).length,
      push_devices: await repo.pushDevices(userId),
    };
  }

  /**
   * One action on a trader: their row locked, then `change`, in one transaction (again if PostgreSQL broke a
   * deadlock). After the commit: the ended sessions' sockets close, then Browse Offers is told if offers paused.
   */
  async function act(username: string, change: (tx: Queryable, target: TraderRecord, now: Date) => Promise<Done>): Promise<string> {
    const done = await transactionWithRetry(db, async (tx) => {
      const target = await tradersRepository(tx).find(username, true);
      if (!target) throw refuse.noSuchTrader();
      return change(tx, target, deps.now());
    });
    deps.sessions.ended(done.ended);
    if (done.offersPaused) await deps.offersChanged();
    return done.sentence;
  }

  /**
   * In an action's transaction: `change` (if any), then everything `target` is signed in with ends (accounts.ts
   * `endEverySession`), and the audit row records the live sessions and bound push devices before and after, with
   * what `change` says it changed. Answers the ended sessions' ids.
   */
  async function signOutAudited(
    tx: Queryable,
    now: Date,
    entry: { operator: Operator; target: TraderRecord; action: AuditAction; reason: string },
    options: { closeSignIns: boolean },
    change?: () => Promise<{ before: Record<string, unknown>; after: Record<string, unknown> } | void>,
  ): Promise<string[]> {
    const { operator, target, action, reason } = entry;
    const before = await signedIn(tx, target.id, now);
    const changed = (await change?.()) ?? { before: {}, after: {} };
    const ended = await endEverySession(tx, target.id, now, options);
    await auditRepository(tx).record({
      actor: operator,
      action,
      target: target.username,
      reason,
      before: { ...changed.before, ...before },
      after: { ...changed.after, ...(await signedIn(tx, target.id, now)) },
      at: now,
    });
    return ended;
  }

  /** Staff accounts are the command line's (docs/operators.md "The role"): the console acts on traders only. */
  const assertTrader = (target: TraderRecord) => {
    if (target.role !== 'trader') throw refuse.staffAccount();
  };

  return {
    /** Part of a username or an email, any case, wildcards taken literally; empty: everyone. Newest first. */
    async search(query: string, page: number): Promise<TraderSearchResult> {
      const { limit, offset } = pageWindow(page, TRADER_SEARCH_PAGE_SIZE);
      const found = await tradersRepository(db).search(query === '' ? undefined : likeContains(query), limit, offset);
      const { rows, paginator } = pageOf(found, page, TRADER_SEARCH_PAGE_SIZE);
      return { traders: rows.map(rowOf), paginator };
    },

    /** One trader's page. */
    async dossier(username: string): Promise<TraderDossier> {
      const repo = tradersRepository(db);
      const trader = await repo.find(username);
      if (!trader) throw refuse.noSuchTrader();
      const idleBefore = idleLimitOf(deps.now(), deps.sessionIdleDays);
      const [balances, trades, signIns, devices, pushDevices, notes] = await Promise.all([
        repo.balances(trader.id),
        repo.newestTrades(trader.id, TRADER_PAGE_TRADES),
        sessionsRepository(db).newestOfUser(trader.id, TRADER_PAGE_SIGN_INS),
        repo.liveSessions(trader.id, idleBefore),
        repo.pushDevices(trader.id),
        repo.notes(trader.id, TRADER_PAGE_NOTES),
      ]);
      return {
        ...rowOf(trader),
        two_factor: trader.two_factor,
        suspension:
          trader.suspended_at === null
            ? null
            : { at: trader.suspended_at.toISOString(), by: trader.suspended_by ?? '', reason: trader.suspended_reason ?? '' },
        balances: balances.map((row) => ({
          ticker: row.ticker,
          decimal_places: row.decimal_places,
          available: fixed(row.available, row.decimal_places),
          escrow: fixed(row.escrow, row.decimal_places),
          withdrawing: fixed(row.withdrawing, row.decimal_places),
        })),
        trades: trades.map((row) => ({
          channel: row.channel,
          created: row.created_at.toISOString(),
          role: row.role,
          partner: row.partner,
          coin__ticker: row.ticker,
          trading_amount_crypto: fixed(row.trading_amount_crypto, row.decimal_places),
          trading_amount: formatFiat(row.trading_amount),
          currency__code: row.currency_code,
          status: row.status,
          dispute_raised: row.dispute_raised,
        })),
        // No session is the operator's own: none is "current".
        sign_ins: signIns.map((row) => signInEntryOf(row, idleBefore)),
        devices: devices.map((row) => ({
          device: row.device,
          address: row.client_address,
          signed_in: row.created_at.toISOString(),
          last_used: row.last_used_at.toISOString(),
        })),
        push_devices: pushDevices,
        notes: notes.map((row) => ({ id: Number(row.id), author: row.author, text: row.text, created: row.created_at.toISOString() })),
      };
    },

    /** A note on anyone's page (staff too): never shown to them. */
    note(operator: Operator, username: string, text: string): Promise<string> {
      return act(username, async (tx, target, now) => {
        const { id } = await tradersRepository(tx).addNote({ userId: target.id, authorId: operator.id, text, at: now });
        await auditRepository(tx).record({ actor: operator, action: 'note_added', target: target.username, after: { note: Number(id), text }, at: now });
        return { ended: [], sentence: sentences.noteAdded };
      });
    },

    /**
     * Suspends a trader: they sign in nowhere, every session ends (sockets, push devices), their live offers pause.
     * Their pending trades go on: the counterparty can still finish, cancel or dispute them. A half-finished
     * two-factor sign-in is left to be refused at its second step (403, as the password step's).
     */
    suspend(operator: Operator, username: string, reason: string): Promise<string> {
      return act(username, async (tx, target, now) => {
        assertTrader(target);
        if (target.suspended) throw refuse.alreadySuspended();
        let paused: number[] = [];
        const ended = await signOutAudited(tx, now, { operator, target, action: 'trader_suspended', reason }, { closeSignIns: false }, async () => {
          await tradersRepository(tx).suspend(target.id, { at: now, reason, by: operator.id });
          paused = await offersService(tx).pauseAllOf(target.id, now);
          return { before: { suspended: false, active_offers: paused }, after: { suspended: true, active_offers: [] } };
        });
        return { ended, sentence: sentences.traderSuspended(target.username), offersPaused: paused.length > 0 };
      });
    },

    /** Lifts a suspension (whatever the role: a suspended trader may have been made staff since). Offers stay paused. */
    reinstate(operator: Operator, username: string, reason: string): Promise<string> {
      return act(username, async (tx, target, now) => {
        if (!target.suspended) throw refuse.notSuspended();
        await tradersRepository(tx).reinstate(target.id);
        await auditRepository(tx).record({
          actor: operator,
          action: 'trader_reinstated',
          target: target.username,
          reason,
          before: { suspended: true },
          after: { suspended: false },
          at: now,
        });
        return { ended: [], sentence: sentences.traderReinstated(target.username) };
      });
    },

    /**
     * The password stops working (its hash is replaced by one of a random secret no one holds) and everything signed
     * in ends; the owner is mailed to choose a new one with "Forgot password?", whose reset starts the withdrawal hold.
     */
    async forcePasswordReset(operator: Operator, username: string, reason: string): Promise<string> {
      // Hashed before the transaction: argon2 takes tens of milliseconds and needs no lock.
      const unusable = await deps.passwords.hash(randomBytes(32).toString('base64url'));
      let owner: { email: string; username: string } | undefined;
      const sentence = await act(username, async (tx, target, now) => {
        assertTrader(target);
        const ended = await signOutAudited(tx, now, { operator, target, action: 'password_reset_forced', reason }, { closeSignIns: true }, async () => {
          await tradersRepository(tx).replacePasswordHash(target.id, unusable);
        });
        owner = target;
        return { ended, sentence: sentences.passwordResetForced(target.username) };
      });
      if (owner) deps.mailer.sendInBackground(securityMail(owner, { kind: 'passwordResetForced' }, deps.now()));
      return sentence;
    },

    /** Every session of the trader ends (sockets closed, push devices unbound), half-finished sign-ins too. */
    endSessions(operator: Operator, username: string, reason: string): Promise<string> {
      return act(username, async (tx, target, now) => {
        assertTrader(target);
        const ended = await signOutAudited(tx, now, { operator, target, action: 'sessions_ended', reason }, { closeSignIns: true });
        return { ended, sentence: sentences.sessionsEnded(target.username) };
      });
    },
  };
}

export type OperatorTradersService = ReturnType<typeof operatorTradersService>;
