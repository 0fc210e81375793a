import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATORS_CHANNEL, operatorEvents, type ReviewQueue } from '../../contracts/operator.ts';
import type { WalletHistory } from '../../contracts/wallet.ts';
import { setUserRole } from '../../server/src/accounts/roles.ts';
import type { RealtimeEvent } from '../../server/src/infra/realtime/realtime.plugin.ts';
import { createTestApp, dbTargets, type CallResult, type TestApp } from '../support/server.ts';
import { depositAddress, depositOnChain, entriesNamed, held, mine, outsider, walletRows } from '../support/server-chain.ts';
import { expectLedgerClean } from '../support/server-money.ts';
import { moderator, signedInAgain, trader, type Trader } from '../support/server-trades.ts';

/**
 * Withdrawal review, four eyes (docs/operators.md "Withdrawal review", docs/rules.md "Wallets"): an external
 * withdrawal at or above WITHDRAWAL_REVIEW_USD waits as `review`, held but never broadcast, until an operator
 * approves it (it goes on to the chain) or rejects it (its amount back through the ledger). A decision is
 * final and applies once, racing decisions included; operators only.
 */

const TEXT = {
  submitted: 'Withdrawal submitted. It will be sent within 30 minutes.',
  inReview: 'Withdrawal submitted. Large withdrawals are reviewed by an operator before they are sent: you will be notified of the decision.',
  approved: 'Withdrawal approved: it goes to the chain now.',
  rejected: "Withdrawal rejected: the amount is back in the trader's wallet.",
  decided: 'This withdrawal has already been decided.',
  notWaiting: 'This withdrawal is not waiting for review.',
  notFound: 'This withdrawal does not exist.',
  operatorsOnly: 'Only operators can use the operator console.',
};
const refused = (status: number, info: string) => ({ status, body: { success: false, info } });
const answered = (info: unknown) => ({ status: 200, body: { success: true, info } });

/** USDT on Tron: price 1, so an amount is its worth and the threshold (10,000 by default) is easy to straddle exactly. */
const USDT_TRON = { ticker: 'USDT', network: 'tron' } as const;

async function withdraw(t: TestApp, who: Trader, amount: string, seed = 'exchange'): Promise<{ answer: CallResult<string>; id: string }> {
  const preview = await t.post('/api/user/wallet/', { type: 'preview_withdrawal', mode: 'crypto', amount, recipient: outsider('tron', seed), ...USDT_TRON }, { token: who.token });
  expect(preview.status, JSON.stringify(preview.body)).toBe(200);
  const answer = await t.post<string>('/api/user/wallet/', { type: 'confirm_withdrawal' }, { token: who.token });
  const rows = await walletRows(t, who.id);
  return { answer, id: rows.at(-1)?.id ?? '' };
}

async function operator(t: TestApp): Promise<Trader> {
  const who = await trader(t);
  const change = await setUserRole(t.app.db, who.username, 'operator');
  expect(change.ok, change.sentence).toBe(true);
  return signedInAgain(t, who);
}

const review = <T = string>(t: TestApp, who: Trader | undefined, body: unknown) =>
  t.post<T>('/api/operator/withdrawals/', body, who ? { token: who.token } : {});

interface Decided {
  status: string;
  cancel_reason: string | null;
  review_reason: string | null;
  reviewed_by: string | null;
  txid: string | null;
}
const decisionOf = (t: TestApp, id: string) =>
  t.app.db.one<Decided>(
    'SELECT status, cancel_reason, review_reason, reviewed_by::text AS reviewed_by, txid FROM wallet_transactions WHERE id = $1',
    [id],
  );

const auditOf = (t: TestApp, id: string) =>
  t.app.db.query<{ actor: string; actor_role: string; action: string; reason: string | null; before: Record<string, unknown>; after: Record<string, unknown> }>(
    'SELECT actor, actor_role, action, reason, before, after FROM audit_log WHERE target = $1 ORDER BY id',
    [id],
  );

const notificationsOf = (t: TestApp, userId: string, kind: string) =>
  t.app.db.query<{ title: string; body: string; link: string | null }>(
    'SELECT title, body, link FROM notifications WHERE user_id = $1 AND kind = $2 ORDER BY id',
    [userId, kind],
  );

/** Whether the simulated chain ever received this withdrawal's broadcast. */
const broadcastCount = async (t: TestApp, id: string) =>
  (await t.app.db.one<{ count: number }>('SELECT count(*)::int AS count FROM simulated_chain_transfers WHERE reference = $1', [`withdrawal:${id}`])).count;

/** What one entry moved, per account kind, as canonical decimals. */
const postingsOf = async (t: TestApp, reference: string) =>
  (
    await t.app.db.query<{ kind: string; amount: string }>(
      `SELECT a.kind, p.amount::text AS amount FROM ledger_postings p JOIN ledger_accounts a ON a.id = p.account_id
       JOIN ledger_entries e ON e.id = p.entry_id WHERE e.reference = $1 ORDER BY a.kind`,
      [reference],
    )
  ).map((row) => ({ kind: row.kind, amount: String(Number(row.amount)) }));

/** The `reviews` events published on the operators' channel while `work` runs. */
async function reviewEvents(t: TestApp, work: () => Promise<unknown>): Promise<RealtimeEvent[]> {
  const seen: RealtimeEvent[] = [];
  const stop = t.app.realtime.subscribe((event) => {
    if (event.channel === OPERATORS_CHANNEL) seen.push(event);
  });
  try {
    await work();
  } finally {
    stop();
  }
  return seen;
}

describe.each(dbTargets)('withdrawal review on %s', (target) => {
  let t: TestApp;
  let ops: Trader;
  let ops2: Trader;
  beforeAll(async () => {
    t = await createTestApp(target);
    await t.app.db.query(`UPDATE coins SET usd_price = '1' WHERE ticker = 'USDT'`);
    ops = await operator(t);
    ops2 = await operator(t);
  });
  afterAll(() => t.close());

  it('sends a withdrawal below the threshold on at once, judged on its exact worth, not its rounded one', async () => {
    const who = await trader(t, { USDT: '20000' });
    // 9,999.999999 USD: amount_usd rounds it to 10,000.00, but it is below 10,000.
    const { answer, id } = await withdraw(t, who, '9999.999999');
    expect(answer).toEqual(answered(TEXT.submitted));
    expect(await decisionOf(t, id)).toMatchObject({ status: 'pending', reviewed_by: null });
    expect((await walletRows(t, who.id)).at(-1)?.amount_usd).toBe('10000.00');
    await t.app.chain.sync();
    expect(await broadcastCount(t, id)).toBe(1);
    await expectLedgerClean(t.app.db);
  });

  it('holds a withdrawal at the threshold for review: the balance leaves, operators are told, nothing reaches the chain', async () => {
    const who = await trader(t, { USDT: '25000' });
    let id = '';
    const events = await reviewEvents(t, async () => {
      const confirmed = await withdraw(t, who, '10000');
      expect(confirmed.answer).toEqual(answered(TEXT.inReview));
      id = confirmed.id;
    });
    expect(events).toEqual([{ channel: OPERATORS_CHANNEL, event: operatorEvents.reviews, data: {} }]);
    expect(await decisionOf(t, id)).toEqual({ status: 'review', cancel_reason: null, review_reason: null, reviewed_by: null, txid: null });
    expect(await held(t, 'USDT', 'available', who.id)).toBe('15000');
    expect(await held(t, 'USDT', 'withdrawing', who.id)).toBe('10000');
    expect(await entriesNamed(t, `withdrawal:${id}:hold`)).toBe(1);
    // Every operator, linked to the queue.
    for (const staff of [ops, ops2]) {
      expect(await notificationsOf(t, staff.id, 'withdrawal_review')).toContainEqual({
        title: 'Withdrawal waiting for review',
        body: `${who.username} withdraws 10000.000000 USDT on tron, worth 10000.00 USD. Approve or reject it in the review queue.`,
        link: '/operator/reviews',
      });
    }
    // The trader's history says so, and filters on it.
    const history = await t.post<WalletHistory>('/api/user/wallet/', { type: 'history', filters: { status: 'review' } }, { token: who.token });
    expect(history.body.info.transactions.map((row) => [row.id, row.status])).toEqual([[Number(id), 'review']]);
    // Rounds of the watcher and blocks mined: still waiting, never broadcast.
    await t.app.chain.sync();
    await mine(t, 2);
    await t.app.chain.sync();
    expect(await decisionOf(t, id)).toMatchObject({ status: 'review', txid: null });
    expect(await broadcastCount(t, id)).toBe(0);
    await expectLedgerClean(t.app.db);
  });

  it('lists the queue oldest first, with the threshold', async () => {
    const who = await trader(t, { USDT: '50000' });
    const first = await withdraw(t, who, '12000', 'first');
    t.clock.advance(1000);
    const second = await withdraw(t, who, '20000.5', 'second');
    const queue = await review<ReviewQueue>(t, ops, { type: 'queue' });
    expect(queue.status).toBe(200);
    expect(queue.body.info.threshold_usd).toBe('10000');
    const mine = queue.body.info.withdrawals.filter((row) => row.username === who.username);
    expect(mine).toEqual([
      {
        id: Number(first.id),
        username: who.username,
        ticker: 'USDT',
        decimal_places: 6,
        network: 'tron',
        amount: '12000.000000',
        amount_usd: '12000.00',
        fee: '1.000000',
        recipient: outsider('tron', 'first'),
        created: expect.any(String),
      },
      expect.objectContaining({ id: Number(second.id), amount: '20000.500000', amount_usd: '20000.50', recipient: outsider('tron', 'second') }),
    ]);
    const ids = queue.body.info.withdrawals.map((row) => row.id);
    expect(ids.indexOf(Number(first.id))).toBeLessThan(ids.indexOf(Number(second.id)));
    const created = queue.body.info.withdrawals.map((row) => row.created);
    expect([...created].sort()).toEqual(created);
  });

  it('approved, it goes to the chain and completes once mined; the trader is told, the audit log has it', async () => {
    const who = await trader(t, { USDT: '30000' });
    const { id } = await withdraw(t, who, '15000');
    const events = await reviewEvents(t, async () => {
      expect(await review(t, ops, { type: 'approve', id: Number(id) })).toEqual(answered(TEXT.approved));
    });
    expect(events.map((event) => event.event)).toEqual([operatorEvents.reviews]);
    expect(await decisionOf(t, id)).toEqual({ status: 'pending', cancel_reason: null, review_reason: null, reviewed_by: ops.id, txid: null });
    expect(await notificationsOf(t, who.id, 'withdrawal_approved')).toEqual([
      {
        title: 'Withdrawal approved',
        body: `Your withdrawal of 15000.000000 USDT on tron to ${outsider('tron', 'exchange')} was approved and is on its way to the chain. You will be told when it is in a block.`,
        link: '/wallets/transactions',
      },
    ]);
    expect(await auditOf(t, id)).toEqual([
      {
        actor: ops.username,
        actor_role: 'operator',
        action: 'withdrawal_approved',
        reason: null,
        before: {
          status: 'review',
          trader: who.username,
          ticker: 'USDT',
          network: 'tron',
          amount: '15000.000000',
          amount_usd: '15000.00',
          recipient: outsider('tron', 'exchange'),
        },
        after: { status: 'pending' },
      },
    ]);
    // From here as any withdrawal: broadcast, mined, completed.
    await t.app.chain.sync();
    expect(await broadcastCount(t, id)).toBe(1);
    await mine(t);
    expect(await decisionOf(t, id)).toMatchObject({ status: 'completed' });
    expect(await held(t, 'USDT', 'withdrawing', who.id)).toBe('0');
    expect(await held(t, 'USDT', 'available', who.id)).toBe('15000');
    expect(await entriesNamed(t, `withdrawal:${id}:sent`)).toBe(1);
    await expectLedgerClean(t.app.db);
  });

  it('rejected, its amount goes back to available with exactly the refund entry; cancelled, the reason kept and told', async () => {
    const who = await trader(t, { USDT: '30000' });
    const { id } = await withdraw(t, who, '11000.25');
    const reason = 'The recipient address belongs to a sanctioned exchange.';
    expect(await review(t, ops, { type: 'reject', id: Number(id), reason: `  ${reason}  ` })).toEqual(answered(TEXT.rejected));
    expect(await decisionOf(t, id)).toEqual({ status: 'cancelled', cancel_reason: 'rejected', review_reason: reason, reviewed_by: ops.id, txid: null });
    expect(await held(t, 'USDT', 'available', who.id)).toBe('30000');
    expect(await held(t, 'USDT', 'withdrawing', who.id)).toBe('0');
    expect((await t.app.db.query<{ reference: string }>('SELECT reference FROM ledger_entries WHERE reference LIKE $1 ORDER BY id', [`withdrawal:${id}:%`])).map((row) => row.reference)).toEqual([
      `withdrawal:${id}:hold`,
      `withdrawal:${id}:refund`,
    ]);
    expect(await postingsOf(t, `withdrawal:${id}:refund`)).toEqual([
      { kind: 'available', amount: '11000.25' },
      { kind: 'withdrawing', amount: '-11000.25' },
    ]);
    expect(await notificationsOf(t, who.id, 'withdrawal_rejected')).toEqual([
      {
        title: 'Withdrawal rejected',
        body: `Your withdrawal of 11000.250000 USDT on tron was rejected: "${reason}". The 11000.250000 USDT is back in your wallet.`,
        link: '/wallets/transactions',
      },
    ]);
    expect(await auditOf(t, id)).toEqual([
      expect.objectContaining({ actor: ops.username, action: 'withdrawal_rejected', reason, after: { status: 'cancelled', cancel_reason: 'rejected' } }),
    ]);
    // Never sent, whatever the watcher does.
    await t.app.chain.sync();
    await mine(t);
    expect(await broadcastCount(t, id)).toBe(0);
    expect((await decisionOf(t, id)).status).toBe('cancelled');
    await expectLedgerClean(t.app.db);
  });

  it('a decision is final: the same operator again, another after, or the other decision, get 409 and change nothing', async () => {
    const who = await trader(t, { USDT: '30000' });
    const { id } = await withdraw(t, who, '10000');
    expect(await review(t, ops, { type: 'approve', id: Number(id) })).toEqual(answered(TEXT.approved));
    expect(await review(t, ops, { type: 'approve', id: Number(id) })).toEqual(refused(409, TEXT.decided));
    expect(await review(t, ops2, { type: 'approve', id: Number(id) })).toEqual(refused(409, TEXT.decided));
    expect(await review(t, ops2, { type: 'reject', id: Number(id), reason: 'Too late' })).toEqual(refused(409, TEXT.decided));
    expect(await decisionOf(t, id)).toMatchObject({ status: 'pending', reviewed_by: ops.id });
    expect((await auditOf(t, id)).map((row) => row.action)).toEqual(['withdrawal_approved']);
    expect(await notificationsOf(t, who.id, 'withdrawal_rejected')).toEqual([]);
    // Rejected, then approved: still rejected, and refunded once.
    const other = await withdraw(t, who, '10000', 'other');
    expect((await review(t, ops, { type: 'reject', id: Number(other.id), reason: 'No' })).status).toBe(200);
    expect(await review(t, ops2, { type: 'approve', id: Number(other.id) })).toEqual(refused(409, TEXT.decided));
    expect(await entriesNamed(t, `withdrawal:${other.id}:refund`)).toBe(1);
    await expectLedgerClean(t.app.db);
  });

  it('refuses an id that is no withdrawal (404) or one that never waited for review (409)', async () => {
    const who = await trader(t, { USDT: '30000' });
    const small = await withdraw(t, who, '50');
    expect(await review(t, ops, { type: 'approve', id: Number(small.id) })).toEqual(refused(409, TEXT.notWaiting));
    expect(await review(t, ops, { type: 'reject', id: Number(small.id), reason: 'x' })).toEqual(refused(409, TEXT.notWaiting));
    expect(await review(t, ops, { type: 'approve', id: 987_654_321 })).toEqual(refused(404, TEXT.notFound));
    // A deposit's row is not a withdrawal either.
    await depositOnChain(t, 'tron', await depositAddress(t, who.id, 'tron'), '100', 'USDT');
    const depositRow = (await walletRows(t, who.id)).find((row) => row.trans_type === 'deposit');
    expect(await review(t, ops, { type: 'approve', id: Number(depositRow?.id) })).toEqual(refused(404, TEXT.notFound));
    expect((await decisionOf(t, small.id)).status).toBe('pending');
    expect(await auditOf(t, small.id)).toEqual([]);
  });

  it('refuses bad input with a clear sentence', async () => {
    const cases: [unknown, string][] = [
      [{ type: 'reject', id: 1, reason: '   ' }, 'reason: Please write the reason'],
      [{ type: 'reject', id: 1 }, 'reason: Please write the reason'],
      [{ type: 'reject', id: 1, reason: 'x'.repeat(1001) }, 'reason: A reason can be at most 1,000 characters'],
      [{ type: 'approve', id: 0 }, 'id must be a withdrawal id'],
      [{ type: 'approve', id: '12' }, 'id must be a withdrawal id'],
      [{ type: 'approve', id: 1.5 }, 'id must be a withdrawal id'],
    ];
    for (const [body, sentence] of cases) {
      expect(await review(t, ops, body), JSON.stringify(body)).toMatchObject(refused(400, sentence));
    }
  });

  it('answers a trader or a moderator 403 and an anonymous caller 401, and changes nothing', async () => {
    const who = await trader(t, { USDT: '30000' });
    const { id } = await withdraw(t, who, '10000');
    const desk = await moderator(t);
    for (const caller of [who, desk]) {
      for (const body of [{ type: 'queue' }, { type: 'approve', id: Number(id) }, { type: 'reject', id: Number(id), reason: 'Mine now' }]) {
        expect(await review(t, caller, body)).toEqual(refused(403, TEXT.operatorsOnly));
      }
    }
    expect((await review(t, undefined, { type: 'approve', id: Number(id) })).status).toBe(401);
    expect(await decisionOf(t, id)).toMatchObject({ status: 'review', reviewed_by: null });
    expect(await auditOf(t, id)).toEqual([]);
    expect(await held(t, 'USDT', 'withdrawing', who.id)).toBe('10000');
  });

  it.each([
    ['approve and reject', 'reject'],
    ['approve and approve', 'approve'],
  ] as const)('applies racing decisions (%s, two operators at once) exactly once', async (_name, second) => {
    const who = await trader(t, { USDT: '100000' });
    for (let round = 0; round < 3; round += 1) {
      const { id } = await withdraw(t, who, '10000', `race-${second}-${round}`);
      const bodies = [
        { type: 'approve', id: Number(id) },
        second === 'reject' ? { type: 'reject', id: Number(id), reason: 'Racing' } : { type: 'approve', id: Number(id) },
      ];
      const answers = await Promise.all([review(t, ops, bodies[0]), review(t, ops2, bodies[1])]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      expect(answers.find((answer) => answer.status === 409)?.body.info).toBe(TEXT.decided);
      const audit = await auditOf(t, id);
      expect(audit).toHaveLength(1);
      const decided = await decisionOf(t, id);
      expect(decided.status).toBe(audit[0]?.action === 'withdrawal_approved' ? 'pending' : 'cancelled');
      expect(await entriesNamed(t, `withdrawal:${id}:refund`)).toBe(decided.status === 'cancelled' ? 1 : 0);
      const told = [...(await notificationsOf(t, who.id, 'withdrawal_approved')), ...(await notificationsOf(t, who.id, 'withdrawal_rejected'))];
      expect(told).toHaveLength(round + 1);
    }
    await expectLedgerClean(t.app.db);
  });
});

describe.each(dbTargets)('withdrawal review turned off (WITHDRAWAL_REVIEW_USD=0) on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target, { env: { WITHDRAWAL_REVIEW_USD: '0' } });
    await t.app.db.query(`UPDATE coins SET usd_price = '1' WHERE ticker = 'USDT'`);
  });
  afterAll(() => t.close());

  it('never holds a withdrawal, however large, and the queue is empty', async () => {
    const who = await trader(t, { USDT: '1000000' });
    const { answer, id } = await withdraw(t, who, '999999');
    expect(answer).toEqual(answered(TEXT.submitted));
    expect((await decisionOf(t, id)).status).toBe('pending');
    await t.app.chain.sync();
    expect(await broadcastCount(t, id)).toBe(1);
    const ops = await operator(t);
    expect(await review(t, ops, { type: 'queue' })).toEqual(answered({ withdrawals: [], threshold_usd: '0' }));
    await expectLedgerClean(t.app.db);
  });
});
