import { z } from 'zod/mini';
import { apiNames, decimalString, thousands, writtenText } from './common.ts';
import { page, paginator } from './market.ts';
import { signInEntry } from './account-protections.ts';

/**
 * The operator's console (docs/operators.md, docs/api.md "Operator console"): operators only, everyone else gets
 * 403 before the body is read. Four calls, each a `type` union as the rest of the API:
 * - POST /api/operator/overview/ — the platform at a glance;
 * - POST /api/operator/traders/ — search, one trader's page, notes, suspend, reinstate, force a password reset,
 *   end their sessions;
 * - POST /api/operator/withdrawals/ — the review queue (four eyes) and its decisions;
 * - POST /api/operator/audit/ — the audit log, paged and filtered;
 * and two exports, GET /api/operator/audit.csv and GET /api/operator/fees.csv.
 * Live: `private-operators` (operators only) carries `overview` (the whole overview, when a number changed) and
 * `reviews` (the queue changed: `{}`; the console reads it again).
 */

export const OPERATORS_CHANNEL = 'private-operators';
export const operatorEvents = { overview: 'overview', reviews: 'reviews' } as const;

/** The longest reason an operator writes (suspension, reinstatement, rejection, forced reset, ended sessions). */
export const OPERATOR_REASON_MAX = 1000;
/** The longest note on a trader. */
export const OPERATOR_NOTE_MAX = 2000;
/** A trader's page lists this many of their newest trades and sign-ins. */
export const TRADER_PAGE_TRADES = 50;
export const TRADER_PAGE_SIGN_INS = 20;

export const operatorReason = writtenText({
  max: OPERATOR_REASON_MAX,
  tooLong: `A reason can be at most ${thousands(OPERATOR_REASON_MAX)} characters`,
  notText: 'Please write the reason',
  empty: 'Please write the reason',
});
export const operatorNote = writtenText({
  max: OPERATOR_NOTE_MAX,
  tooLong: `A note can be at most ${thousands(OPERATOR_NOTE_MAX)} characters`,
  notText: 'Please write the note',
  empty: 'Please write the note',
});
const targetUsername = z.string({ error: 'username is required' }).check(z.trim(), z.minLength(1, 'username is required'), z.maxLength(150));

// ---- Overview -------------------------------------------------------------------------------------------------

export const overviewRequest = z.discriminatedUnion('type', [z.object({ type: z.literal('overview') })]).register(apiNames, { id: 'OverviewRequest' });

/** Trades that ended, or were disputed, within a period. */
const tradePeriod = z.object({
  opened: z.int(),
  completed: z.int(),
  cancelled: z.int(),
  disputed: z.int(),
});

/** What the ledger owes traders of one coin on one network against what the chain side holds. */
export const networkHolding = z.object({
  ticker: z.string(),
  decimal_places: z.int(),
  /** Traders' available + escrow + withdrawing, from the ledger. */
  owed: decimalString,
  /** What the chain side holds (deposit addresses, hot wallet, cold addresses), or null when not read yet. */
  held: z.nullable(decimalString),
  /** held − owed: negative is a shortfall. Null with `held`. */
  difference: z.nullable(decimalString),
  /** `chain`: read from the node at `read_at`; `recorded`: the simulated chain's own records. */
  source: z.enum(['chain', 'recorded']),
});

export const networkState = z.object({
  network: z.string(),
  name: z.string(),
  /** The chain watcher's cursor: the last block it read, or null before its first round. */
  last_block: z.nullable(z.int()),
  /** The node's newest block when last asked, or null. */
  head: z.nullable(z.int()),
  /** head − last_block, or null. */
  lag_blocks: z.nullable(z.int()),
  /** ISO 8601: when the watcher last finished a round on this network, or null. */
  last_round_at: z.nullable(z.string()),
  /** Chain incidents not yet settled (docs/chains.md). */
  open_incidents: z.int(),
  holdings: z.array(networkHolding),
  /** ISO 8601: when the holdings were read. */
  read_at: z.nullable(z.string()),
});

export const feeIncome = z.object({
  ticker: z.string(),
  decimal_places: z.int(),
  today: decimalString,
  week: decimalString,
  all_time: decimalString,
});

export const operatorOverview = z.object({
  /** ISO 8601. */
  generated_at: z.string(),
  traders: z.object({ total: z.int(), active_24h: z.int(), active_7d: z.int(), suspended: z.int() }),
  trades: z.object({
    /** Pending now (disputed ones included). */
    open: z.int(),
    /** Disputed and not yet settled now. */
    disputed: z.int(),
    /** Since midnight UTC. */
    today: tradePeriod,
    /** The last 7 days. */
    week: tradePeriod,
  }),
  disputes: z.object({ waiting: z.int(), oldest_waiting_since: z.nullable(z.string()) }),
  fees: z.array(feeIncome),
  networks: z.array(networkState),
  push_queue: z.object({ depth: z.int(), oldest: z.nullable(z.string()) }),
  reviews: z.object({ waiting: z.int(), threshold_usd: decimalString }),
}).register(apiNames, { id: 'OperatorOverview' });
export type OperatorOverview = z.infer<typeof operatorOverview>;

// ---- Traders --------------------------------------------------------------------------------------------------

export const tradersRequest = z.discriminatedUnion('type', [
  /** By username or email, case-insensitive, part of either; empty: everyone, newest first. */
  z.object({
    type: z.literal('search'),
    query: z._default(z.optional(z.string().check(z.trim(), z.maxLength(200, 'A search can be at most 200 characters'))), ''),
    page,
  }),
  z.object({ type: z.literal('get'), username: targetUsername }),
  z.object({ type: z.literal('note'), username: targetUsername, text: operatorNote }),
  z.object({ type: z.literal('suspend'), username: targetUsername, reason: operatorReason }),
  z.object({ type: z.literal('reinstate'), username: targetUsername, reason: operatorReason }),
  z.object({ type: z.literal('force_password_reset'), username: targetUsername, reason: operatorReason }),
  z.object({ type: z.literal('end_sessions'), username: targetUsername, reason: operatorReason }),
]).register(apiNames, { id: 'OperatorTradersRequest' });
export type TradersRequest = z.infer<typeof tradersRequest>;

export const operatorUserRole = z.enum(['trader', 'moderator', 'operator']);

export const traderRow = z.object({
  username: z.string(),
  email: z.string(),
  role: operatorUserRole,
  /** ISO 8601. */
  joined: z.string(),
  suspended: z.boolean(),
  /** ISO 8601: the newest use of any of their sessions, or null. */
  last_seen: z.nullable(z.string()),
});
export type TraderRow = z.infer<typeof traderRow>;
export const traderSearchResult = z.object({ traders: z.array(traderRow), paginator }).register(apiNames, { id: 'TraderSearchResult' });
export type TraderSearchResult = z.infer<typeof traderSearchResult>;

export const suspension = z.object({
  /** ISO 8601. */
  at: z.string(),
  by: z.string(),
  reason: z.string(),
});

export const traderBalance = z.object({
  ticker: z.string(),
  decimal_places: z.int(),
  available: decimalString,
  escrow: decimalString,
  /** Left the balance for a withdrawal not yet settled (on its way, or waiting for review). */
  withdrawing: decimalString,
});

export const traderTrade = z.object({
  channel: z.string(),
  /** ISO 8601. */
  created: z.string(),
  role: z.enum(['buyer', 'seller']),
  partner: z.string(),
  coin__ticker: z.string(),
  trading_amount_crypto: decimalString,
  trading_amount: decimalString,
  currency__code: z.string(),
  status: z.enum(['pending', 'completed', 'cancelled']),
  dispute_raised: z.boolean(),
});

/** A live session: a device signed in. */
export const traderDevice = z.object({
  device: z.string(),
  address: z.string(),
  /** ISO 8601. */
  signed_in: z.string(),
  last_used: z.string(),
});

export const operatorNoteEntry = z.object({
  id: z.int(),
  author: z.string(),
  text: z.string(),
  /** ISO 8601. */
  created: z.string(),
});
export type OperatorNoteEntry = z.infer<typeof operatorNoteEntry>;

export const traderDossier = z.object({
  ...traderRow.shape,
  two_factor: z.boolean(),
  suspension: z.nullable(suspension),
  balances: z.array(traderBalance),
  /** The newest TRADER_PAGE_TRADES, newest first. */
  trades: z.array(traderTrade),
  /** The newest TRADER_PAGE_SIGN_INS sign-ins, as the trader's own sign-in history shows them. */
  sign_ins: z.array(signInEntry),
  devices: z.array(traderDevice),
  /** Web-push devices bound to them. */
  push_devices: z.int(),
  /** Oldest first. */
  notes: z.array(operatorNoteEntry),
}).register(apiNames, { id: 'TraderDossier' });
export type TraderDossier = z.infer<typeof traderDossier>;

// ---- Withdrawal review ----------------------------------------------------------------------------------------

const withdrawalId = z.int({ error: 'id must be a withdrawal id' }).check(z.gte(1, 'id must be a withdrawal id'), z.lte(Number.MAX_SAFE_INTEGER));

export const withdrawalsReviewRequest = z.discriminatedUnion('type', [
  /** Waiting for a decision, oldest first. */
  z.object({ type: z.literal('queue') }),
  z.object({ type: z.literal('approve'), id: withdrawalId }),
  z.object({ type: z.literal('reject'), id: withdrawalId, reason: operatorReason }),
]).register(apiNames, { id: 'WithdrawalsReviewRequest' });
export type WithdrawalsReviewRequest = z.infer<typeof withdrawalsReviewRequest>;

export const reviewedWithdrawal = z.object({
  id: z.int(),
  username: z.string(),
  ticker: z.string(),
  decimal_places: z.int(),
  network: z.string(),
  /** What left the trader's balance, in the coin. */
  amount: decimalString,
  /** Its worth when confirmed, in USD, 2 places. */
  amount_usd: decimalString,
  fee: decimalString,
  recipient: z.string(),
  /** ISO 8601: when the trader confirmed it. */
  created: z.string(),
});
export type ReviewedWithdrawal = z.infer<typeof reviewedWithdrawal>;
export const reviewQueue = z.object({ withdrawals: z.array(reviewedWithdrawal), threshold_usd: decimalString }).register(apiNames, { id: 'ReviewQueue' });
export type ReviewQueue = z.infer<typeof reviewQueue>;

// ---- Audit log ------------------------------------------------------------------------------------------------

/** Every staff action the audit log records (docs/operators.md "Audit log"). */
export const AUDIT_ACTIONS = [
  'role_changed',
  'trader_suspended',
  'trader_reinstated',
  'password_reset_forced',
  'sessions_ended',
  'note_added',
  'withdrawal_approved',
  'withdrawal_rejected',
  'dispute_message',
  'dispute_resolved',
] as const;
export const auditAction = z.enum(AUDIT_ACTIONS);
export type AuditAction = z.infer<typeof auditAction>;

const isoDate = z.string().check(z.regex(/^(\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?)?$/, 'must be a date (YYYY-MM-DD)'));

export const auditFilters = z.object({
  /** Username of who acted, exactly. */
  actor: z.optional(z.string().check(z.trim(), z.maxLength(150))),
  action: z.optional(z.union([auditAction, z.literal('')])),
  /** Username (or reference) acted on, exactly. */
  target: z.optional(z.string().check(z.trim(), z.maxLength(150))),
  /** From this day (UTC), inclusive. */
  since: z.optional(isoDate),
  /** Up to this day (UTC), inclusive. */
  until: z.optional(isoDate),
});
export type AuditFilters = z.infer<typeof auditFilters>;

export const auditRequest = z.discriminatedUnion('type', [
  z.object({ type: z.literal('list'), page, filters: z._default(z.optional(auditFilters), {}) }),
]).register(apiNames, { id: 'AuditRequest' });
export type AuditRequest = z.infer<typeof auditRequest>;

export const auditEntry = z.object({
  id: z.int(),
  /** ISO 8601. */
  at: z.string(),
  /** Username, or "command line" for `npm run user:role`. */
  actor: z.string(),
  actor_role: z.string(),
  action: auditAction,
  /** Username or reference acted on (a trade's channel, a withdrawal's id), or null. */
  target: z.nullable(z.string()),
  reason: z.nullable(z.string()),
  // Any object (a loose object, not a record: the same JSON, without a schema kind the web's first page would
  // otherwise download for the console alone, bench/bundle-size.ts).
  before: z.nullable(z.looseObject({})),
  after: z.nullable(z.looseObject({})),
});
export type AuditEntry = z.infer<typeof auditEntry>;
export const auditPage = z.object({ entries: z.array(auditEntry), paginator }).register(apiNames, { id: 'AuditPage' });
export type AuditPage = z.infer<typeof auditPage>;

/** The query of GET /api/operator/fees.csv: a range of days (UTC), both ends optional. */
export const feeExportQuery = z.object({ since: z.optional(isoDate), until: z.optional(isoDate) });
