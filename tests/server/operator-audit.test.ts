import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, AuditPage } from '../../contracts/operator.ts';
import { auditRepository } from '../../server/src/audit/audit.repository.ts';
import { loadCalls } from '../../server/src/infra/http/calls.ts';
import { Money } from '../../server/src/ledger/money.ts';
import { createTestApp, dbTargets, type TestApp } from '../support/server.ts';
import { act, disputedTrade, moderationCall, moderator, openTrade, operator, sellOffer, trader, type Trader } from '../support/server-trades.ts';

const NOW = new Date('2026-11-20T12:00:00.000Z');
const DAY_ONE = Date.parse('2026-11-01T00:00:00.000Z');
const HOUR = 60 * 60 * 1000;
const OPERATORS_ONLY = { status: 403, body: { success: false, info: 'Only operators can use the operator console.' } };

const auditRows = (t: TestApp) => t.app.db.query<Record<string, unknown>>('SELECT * FROM audit_log ORDER BY id');

const listOf = (t: TestApp, who: Trader | undefined, body: Record<string, unknown>) =>
  t.post<AuditPage>('/api/operator/audit/', { type: 'list', ...body }, who ? { token: who.token } : {});

const getCsv = (t: TestApp, who: Trader | undefined, url: string) =>
  t.app.inject({ method: 'GET', url, headers: who ? { authorization: `Bearer ${who.token}` } : {} });

/** The `type`s a declared call's request takes (its discriminated union's options), for calling it every way it is called. */
function typesOf(schema: unknown): string[] {
  const options = (schema as { _zod?: { def?: { options?: unknown[] } } })._zod?.def?.options ?? [];
  return options.flatMap((option) => {
    const values = (option as { _zod?: { def?: { shape?: { type?: { _zod?: { def?: { values?: unknown[] } } } } } } })._zod?.def?.shape?.type?._zod?.def?.values;
    return values?.filter((value): value is string => typeof value === 'string') ?? [];
  });
}

describe.each(dbTargets)('the audit log on %s', (target) => {
  let t: TestApp;
  let ops: Trader;
  let other: Trader;
  let mod: Trader;
  let seller: Trader;
  let buyer: Trader;
  let offer: number;

  /** `count` entries an hour apart from DAY_ONE, by `ops` (even) and `other` (odd), each on its own subject. */
  async function seed(count: number) {
    for (let i = 0; i < count; i += 1) {
      const by = i % 2 === 0 ? ops : other;
      await auditRepository(t.app.db).record({
        actor: { id: by.id, username: by.username, role: 'operator' },
        action: i % 2 === 0 ? 'note_added' : 'trader_suspended',
        target: `subject_${i}`,
        reason: `reason ${i}`,
        before: i % 2 === 0 ? null : { suspended: false },
        after: i % 2 === 0 ? null : { suspended: true },
        at: new Date(DAY_ONE + i * HOUR),
      });
    }
  }

  beforeAll(async () => {
    t = await createTestApp(target, { env: { MAX_OPEN_TRADES: '100' } });
    t.clock.set(NOW);
    seller = await trader(t, { BTC: '1' });
    buyer = await trader(t);
    offer = await sellOffer(t, seller);
    mod = await moderator(t);
    ops = await operator(t);
    other = await operator(t);
    await seed(120);
  });
  afterAll(() => t.close());

  describe('who may read it', () => {
    it('answers 401 without a session and 403 to a trader and a moderator, on the list and both exports, changing nothing', async () => {
      const before = await auditRows(t);
      expect(await listOf(t, undefined, {})).toMatchObject({ status: 401 });
      for (const url of ['/api/operator/audit.csv', '/api/operator/fees.csv']) expect((await getCsv(t, undefined, url)).statusCode).toBe(401);
      for (const who of [buyer, mod]) {
        expect(await listOf(t, who, {})).toEqual(OPERATORS_ONLY);
        for (const url of ['/api/operator/audit.csv?actor=x', '/api/operator/fees.csv']) {
          const answer = await getCsv(t, who, url);
          expect({ status: answer.statusCode, body: answer.json() }).toEqual({ ...OPERATORS_ONLY, body: { ...OPERATORS_ONLY.body, code: 'operator.operators_only' } });
        }
      }
      expect(await auditRows(t)).toEqual(before);
    });
  });

  describe('list', () => {
    const subjects = (page: AuditPage) => page.entries.map((entry) => entry.target);

    it('pages 50 entries newest first, and filters by actor', async () => {
      const first = (await listOf(t, ops, { filters: { actor: ops.username } })).body.info;
      expect(first.entries).toHaveLength(50);
      expect(subjects(first).slice(0, 3)).toEqual(['subject_118', 'subject_116', 'subject_114']);
      expect(first.paginator).toEqual({ prev: false, next: true, previous_page: null, next_page: 2 });
      const second = (await listOf(t, ops, { page: 2, filters: { actor: ops.username } })).body.info;
      expect(subjects(second)).toEqual(Array.from({ length: 10 }, (_, i) => `subject_${18 - 2 * i}`));
      expect(second.paginator).toEqual({ prev: true, next: false, previous_page: 1, next_page: null });
      expect(second.entries[9]).toEqual<AuditEntry>({
        id: expect.any(Number) as number,
        at: new Date(DAY_ONE).toISOString(),
        actor: ops.username,
        actor_role: 'operator',
        action: 'note_added',
        target: 'subject_0',
        reason: 'reason 0',
        before: null,
        after: null,
      });
    });

    it('filters by action, by the exact target, and by days (UTC, both ends inclusive)', async () => {
      const suspended = (await listOf(t, ops, { page: 2, filters: { action: 'trader_suspended', actor: other.username } })).body.info;
      expect(suspended.entries).toHaveLength(10);
      expect(suspended.entries[0]).toMatchObject({ action: 'trader_suspended', before: { suspended: false }, after: { suspended: true } });
      expect(subjects((await listOf(t, ops, { filters: { target: 'subject_7' } })).body.info)).toEqual(['subject_7']);
      // 1 November 00:00 is hour 0: the second day holds hours 24 to 47, half of them by `ops`.
      const secondDay = (await listOf(t, ops, { filters: { actor: ops.username, since: '2026-11-02', until: '2026-11-02' } })).body.info;
      expect(subjects(secondDay)).toEqual(Array.from({ length: 12 }, (_, i) => `subject_${46 - 2 * i}`));
      expect((await listOf(t, ops, { filters: { since: '2026-11-06' } })).body.info.entries.filter((entry) => entry.target?.startsWith('subject_'))).toEqual([]);
    });

    it('refuses a day that does not exist, or is not a day, with 400', async () => {
      expect(await listOf(t, ops, { filters: { since: '2026-02-30' } })).toMatchObject({ status: 400, body: { info: 'since must be a date (YYYY-MM-DD)' } });
      expect((await listOf(t, ops, { filters: { until: 'yesterday' } })).status).toBe(400);
      expect((await listOf(t, ops, { filters: { action: 'everything' } })).status).toBe(400);
      expect((await getCsv(t, ops, '/api/operator/audit.csv?until=2026-13-01')).statusCode).toBe(400);
      expect((await getCsv(t, ops, '/api/operator/fees.csv?since=not-a-day')).statusCode).toBe(400);
    });
  });

  describe('exports', () => {
    it('audit.csv: the filtered log, newest first, RFC 4180, a formula neutralised, as an attachment', async () => {
      await auditRepository(t.app.db).record({
        actor: { id: ops.id, username: ops.username, role: 'operator' },
        action: 'trader_suspended',
        target: '+cmd|calc',
        reason: '=HYPERLINK("http://evil.example","click"), then\r\n@SUM(1)',
        before: { suspended: false },
        after: { suspended: true, note: '-1' },
        at: new Date('2026-11-07T09:30:00.000Z'),
      });
      const answer = await getCsv(t, ops, `/api/operator/audit.csv?actor=${ops.username}&since=2026-11-05&until=2026-11-07`);
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(answer.headers['content-disposition']).toBe('attachment; filename="peerex-audit-2026-11-20.csv"');
      const [injected, ...rest] = (await t.app.db.query<{ id: string }>(
        `SELECT id FROM audit_log WHERE actor = $1 AND at >= '2026-11-05' AND at < '2026-11-08' ORDER BY at DESC, id DESC`,
        [ops.username],
      )).map((row) => row.id);
      // Hours 96 to 119 are 5 November; `ops` wrote the even ones.
      const seeded = Array.from({ length: 12 }, (_, i) => 118 - 2 * i);
      expect(rest).toHaveLength(seeded.length);
      expect(answer.body).toBe(
        'id,at,actor,actor_role,action,target,reason,before,after\r\n' +
          `${injected},2026-11-07T09:30:00.000Z,${ops.username},operator,trader_suspended,'+cmd|calc,` +
          `"'=HYPERLINK(""http://evil.example"",""click""), then\r\n@SUM(1)","{""suspended"":false}","{""note"":""-1"",""suspended"":true}"\r\n` +
          seeded.map((hour, i) => `${rest[i]},${new Date(DAY_ONE + hour * HOUR).toISOString()},${ops.username},operator,note_added,subject_${hour},reason ${hour},,\r\n`).join(''),
      );
    });

    it('audit.csv streams a log longer than one batch whole, each entry once, newest first', async () => {
      await t.app.db.query(
        `INSERT INTO audit_log (at, actor_id, actor, actor_role, action, target)
         SELECT $1::timestamptz + make_interval(secs => n), NULL, 'bulk', 'command line', 'role_changed', 'bulk_' || n FROM generate_series(1, 2100) AS n`,
        [new Date('2026-10-01T00:00:00.000Z')],
      );
      const answer = await getCsv(t, ops, '/api/operator/audit.csv?actor=bulk');
      const lines = answer.body.split('\r\n').filter((line) => line !== '');
      expect(lines).toHaveLength(2101);
      expect(lines.slice(1).map((line) => line.split(',')[5])).toEqual(Array.from({ length: 2100 }, (_, i) => `bulk_${2100 - i}`));
    });

    it('fees.csv: one row per fee the ledger took, oldest first, exact, within the days asked', async () => {
      const completedAt = async (at: string) => {
        t.clock.set(new Date(at));
        const channel = await openTrade(t, buyer, offer, '97', 'SEPA');
        expect((await act(t, buyer, 'mark_paid', channel)).status).toBe(200);
        expect((await act(t, seller, 'release_coin', channel)).status).toBe(200);
        return t.app.db.one<{ id: string; channel: string; fee: string }>('SELECT id, channel, fee_crypto::text AS fee FROM trades WHERE channel = $1', [channel]);
      };
      const early = await completedAt('2026-11-18T08:00:00.000Z');
      const late = await completedAt('2026-11-19T23:59:59.000Z');
      const after = await completedAt('2026-11-20T00:00:00.000Z');
      t.clock.set(NOW);
      // A channel is random base64url: one in 64 starts with "-", which the export writes after a `'` (a
      // spreadsheet would read it as a formula, docs/api.md "Operator: audit log and exports").
      const cell = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);
      const row = (trade: { id: string; channel: string; fee: string }, at: string) =>
        `${at},BTC,${new Money(trade.fee).toFixed(8)},trade:${trade.id}:release,${cell(trade.channel)}\r\n`;
      expect(early.fee).toMatch(/^0\.\d{1,8}$/);
      const answer = await getCsv(t, ops, '/api/operator/fees.csv?since=2026-11-18&until=2026-11-19');
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(answer.headers['content-disposition']).toBe('attachment; filename="peerex-fees-2026-11-20.csv"');
      expect(answer.body).toBe(
        'date,coin,amount,reference,trade\r\n' + row(early, '2026-11-18T08:00:00.000Z') + row(late, '2026-11-19T23:59:59.000Z'),
      );
      const whole = (await getCsv(t, ops, '/api/operator/fees.csv')).body;
      const last = row(after, '2026-11-20T00:00:00.000Z');
      expect(whole.slice(-last.length), whole).toBe(last);
    });
  });

  describe("moderators' actions", () => {
    const entriesOn = (channel: string) =>
      t.app.db.query<{ actor: string; actor_role: string; action: string; reason: string | null; before: unknown; after: unknown; at: Date }>(
        'SELECT actor, actor_role, action, reason, before, after, at FROM audit_log WHERE target = $1 ORDER BY id',
        [channel],
      );

    it("a moderator's message into a dispute is written with it, and a refused one is not", async () => {
      const channel = await disputedTrade(t, { buyer, seller, offer });
      expect((await moderationCall(t, mod, { type: 'message', channel, text: '  Please both send your statements  ' })).status).toBe(200);
      expect(await entriesOn(channel)).toEqual([
        { actor: mod.username, actor_role: 'moderator', action: 'dispute_message', reason: null, before: null, after: { text: 'Please both send your statements' }, at: NOW },
      ]);
      expect((await moderationCall(t, mod, { type: 'resolve', channel, outcome: 'refund', resolution: 'No payment arrived' })).status).toBe(200);
      expect((await moderationCall(t, mod, { type: 'message', channel, text: 'too late' })).status).toBe(409);
      expect((await entriesOn(channel)).map((entry) => entry.action)).toEqual(['dispute_message', 'dispute_resolved']);
    });

    it('a settlement is written with its before, after and outcome; of two racing settlements, one entry', async () => {
      const channel = await disputedTrade(t, { buyer, seller, offer });
      const second = await moderator(t);
      const answers = await Promise.all([
        moderationCall(t, mod, { type: 'resolve', channel, outcome: 'release', resolution: 'The payment arrived' }),
        moderationCall(t, second, { type: 'resolve', channel, outcome: 'refund', resolution: 'No payment' }),
      ]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      const winner = answers[0]?.status === 200 ? { who: mod, outcome: 'release', reason: 'The payment arrived', status: 'completed' } : { who: second, outcome: 'refund', reason: 'No payment', status: 'cancelled' };
      expect(await entriesOn(channel)).toEqual([
        {
          actor: winner.who.username,
          actor_role: 'moderator',
          action: 'dispute_resolved',
          reason: winner.reason,
          before: { status: 'pending', buyer_paid: true, dispute_raised: true },
          after: { status: winner.status, buyer_paid: winner.outcome === 'release', dispute_raised: false, outcome: winner.outcome },
          at: NOW,
        },
      ]);
    });
  });

  describe('no call can alter it', () => {
    it('the database refuses UPDATE, DELETE and TRUNCATE on it, whoever asks', async () => {
      const before = await auditRows(t);
      for (const statement of ["UPDATE audit_log SET reason = 'rewritten'", 'DELETE FROM audit_log', 'TRUNCATE audit_log']) {
        await expect(t.app.db.query(statement)).rejects.toThrow(/audit_log is append-only/);
      }
      expect(await auditRows(t)).toEqual(before);
    });

    it('every operator call, every way it is called, leaves every entry as it was', async () => {
      const before = await auditRows(t);
      const calls = (await loadCalls()).filter((call) => call.access === 'operator');
      expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual(expect.arrayContaining(['post /api/operator/overview/', 'post /api/operator/audit/', 'get /api/operator/audit.csv', 'get /api/operator/fees.csv']));
      for (const call of calls) {
        if (call.method === 'get') {
          expect((await getCsv(t, ops, call.path)).statusCode, call.path).toBeLessThan(500);
          continue;
        }
        const types = typesOf(call.request?.schema);
        expect(types.length, call.path).toBeGreaterThan(0);
        for (const type of types) {
          for (const body of [{ type }, { type, username: buyer.username, reason: 'audit test', text: 'audit test', id: 1, channel: 'x' }]) {
            expect((await t.post(call.path, body, { token: ops.token })).status, `${call.path} ${type}`).toBeLessThan(500);
          }
        }
      }
      const after = await auditRows(t);
      expect(after.slice(0, before.length)).toEqual(before);
    });
  });
});
