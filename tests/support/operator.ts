/**
 * The operator console's answers for the web tests (the overview, traders, a trader's page, the review queue,
 * the audit log), shaped by contracts/operator.ts, and a fake of its service whose calls wait until the test
 * answers them.
 */
import type { AuditEntry, AuditPage, OperatorOverview, ReviewedWithdrawal, TraderDossier, TraderRow } from '../../contracts/operator.ts';
import type { FlowDeps } from '../../src/machines/shared/deps.ts';
import { ApiError } from '../../src/services/api.ts';
import type { OperatorService } from '../../src/services/operator.ts';
import { fakeRealtime } from './chat.ts';
import { scriptedService } from './machines.ts';

export const GENERATED_AT = '2026-03-05T12:00:00.000Z';

export function operatorOverview(overrides: Partial<OperatorOverview> = {}): OperatorOverview {
  return {
    generated_at: GENERATED_AT,
    traders: { total: 1284, active_24h: 212, active_7d: 688, suspended: 3 },
    trades: {
      open: 41,
      disputed: 4,
      today: { opened: 57, completed: 49, cancelled: 6, disputed: 1 },
      week: { opened: 402, completed: 361, cancelled: 28, disputed: 7 },
    },
    disputes: { waiting: 4, oldest_waiting_since: '2026-03-05T09:46:00.000Z' },
    fees: [{ ticker: 'BTC', decimal_places: 8, today: '0.00412000', week: '0.03120500', all_time: '1.20435000' }],
    networks: [
      {
        network: 'bitcoin',
        name: 'Bitcoin',
        last_block: 871203,
        head: 871205,
        lag_blocks: 2,
        last_round_at: GENERATED_AT,
        open_incidents: 0,
        holdings: [{ ticker: 'BTC', decimal_places: 8, owed: '12.50000000', held: '12.50431000', difference: '0.00431000', source: 'chain' }],
        read_at: GENERATED_AT,
      },
      {
        network: 'ethereum',
        name: 'Ethereum',
        last_block: 20931120,
        head: 20931180,
        lag_blocks: 60,
        last_round_at: GENERATED_AT,
        open_incidents: 1,
        holdings: [
          { ticker: 'ETH', decimal_places: 18, owed: '340.000000000000000000', held: '339.500000000000000000', difference: '-0.500000000000000000', source: 'chain' },
          { ticker: 'USDT', decimal_places: 6, owed: '250000.000000', held: null, difference: null, source: 'recorded' },
        ],
        read_at: GENERATED_AT,
      },
    ],
    push_queue: { depth: 3, oldest: GENERATED_AT },
    reviews: { waiting: 2, threshold_usd: '10000.00' },
    ...overrides,
  };
}

export function traderRow(username: string, overrides: Partial<TraderRow> = {}): TraderRow {
  return { username, email: `${username}@example.com`, role: 'trader', joined: '2026-01-05T10:00:00.000Z', suspended: false, last_seen: GENERATED_AT, ...overrides };
}

export const traderPage = (page: number, of: number, traders: TraderRow[] = [traderRow(`trader${page}`)]) => ({
  traders,
  paginator: { prev: page > 1, next: page < of, previous_page: page > 1 ? page - 1 : null, next_page: page < of ? page + 1 : null },
});

export function traderDossier(overrides: Partial<TraderDossier> = {}): TraderDossier {
  return {
    ...traderRow('bob'),
    two_factor: true,
    suspension: null,
    balances: [{ ticker: 'BTC', decimal_places: 8, available: '0.41230000', escrow: '0.01500000', withdrawing: '0.00000000' }],
    trades: [
      {
        channel: 'trade-1',
        created: GENERATED_AT,
        role: 'seller',
        partner: 'alice',
        coin__ticker: 'BTC',
        trading_amount_crypto: '0.01500000',
        trading_amount: '975.00',
        currency__code: 'USD',
        status: 'pending',
        dispute_raised: true,
      },
    ],
    sign_ins: [{ id: 9, created: GENERATED_AT, last_used: GENERATED_AT, device: 'Chrome on Linux (desktop)', ip: '203.0.113.7', current: false, active: true }],
    devices: [{ device: 'Chrome on Linux (desktop)', address: '203.0.113.7', signed_in: GENERATED_AT, last_used: GENERATED_AT }],
    push_devices: 1,
    notes: [{ id: 1, author: 'ops', text: 'Asked for ID by mail.', created: GENERATED_AT }],
    ...overrides,
  };
}

/** The page of a suspended trader, as the server answers it after a suspension. */
export const suspendedDossier = (overrides: Partial<TraderDossier> = {}) =>
  traderDossier({ suspended: true, suspension: { at: GENERATED_AT, by: 'ops', reason: 'Stolen bank accounts' }, ...overrides });

export function reviewedWithdrawal(id: number, overrides: Partial<ReviewedWithdrawal> = {}): ReviewedWithdrawal {
  return {
    id,
    username: 'bob',
    ticker: 'USDT',
    decimal_places: 6,
    network: 'ethereum',
    amount: '12000.000000',
    amount_usd: '12000.00',
    fee: '5.000000',
    recipient: '0x9f8b3c1a4e2d7b6c5a4f3e2d1c0b9a8f7e6d5c4b',
    created: GENERATED_AT,
    ...overrides,
  };
}

export const reviewQueueOf = (...withdrawals: ReviewedWithdrawal[]) => ({ withdrawals, threshold_usd: '10000.00' });

export function auditEntry(id: number, overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    id,
    at: GENERATED_AT,
    actor: 'ops',
    actor_role: 'operator',
    action: 'trader_suspended',
    target: 'bob',
    reason: 'Stolen bank accounts',
    before: { suspended: false },
    after: { suspended: true },
    ...overrides,
  };
}

export const auditPageOf = (page: number, of: number, entries: AuditEntry[] = [auditEntry(page)]): AuditPage => ({
  entries,
  paginator: { prev: page > 1, next: page < of, previous_page: page > 1 ? page - 1 : null, next_page: page < of ? page + 1 : null },
});

/** A refusal as src/services/api.ts throws it. */
export const refusal = (status: number, message: string) => new ApiError(message, status);

const METHODS = ['overview', 'searchTraders', 'trader', 'addNote', 'act', 'reviewQueue', 'decide', 'audit', 'download'] as const;

/** The console's service, each call waiting until the test answers the oldest waiting call of its name. */
export function fakeOperatorCalls() {
  const calls = scriptedService<(typeof METHODS)[number]>(METHODS);
  return { ...calls, service: calls.methods as unknown as OperatorService };
}

/** The flow dependencies the console's charts bind, with the fakes above and a recorded toast list. */
export function operatorDeps(calls = fakeOperatorCalls(), realtime = fakeRealtime()) {
  const notices: { title: string; type?: string }[] = [];
  const deps = {
    realtime: realtime.service,
    notify: (notice: { title: string; type?: string }) => void notices.push(notice),
  } as unknown as FlowDeps;
  return { deps, calls, realtime, notices, operator: calls.service };
}
