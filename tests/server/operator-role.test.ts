import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUserRole } from '../../server/src/accounts/roles.ts';
import { loadCalls } from '../../server/src/infra/http/calls.ts';
import { createTestApp, dbTargets, type TestApp } from '../support/server.ts';
import { sellOffer, signedInAgain, trader, type Trader } from '../support/server-trades.ts';

/** What a refused call must leave as it was: every table money, offers and trades live in. */
const countsOf = async (t: TestApp) =>
  t.app.db.one<Record<string, number>>(
    `SELECT (SELECT count(*)::int FROM offers) AS offers, (SELECT count(*)::int FROM trades) AS trades,
            (SELECT count(*)::int FROM wallet_transactions) AS wallet_transactions,
            (SELECT count(*)::int FROM ledger_entries) AS ledger_entries,
            (SELECT count(*)::int FROM withdrawal_allowlist) AS allowlist`,
  );

describe.each(dbTargets)('the operator role on %s (docs/operators.md "The role")', (target) => {
  let t: TestApp;
  let operator: Trader;
  let seller: Trader;
  let offer: number;
  beforeAll(async () => {
    t = await createTestApp(target);
    seller = await trader(t, { BTC: '1' });
    offer = await sellOffer(t, seller);
    const who = await trader(t);
    expect((await setUserRole(t.app.db, who.username, 'operator')).ok).toBe(true);
    operator = await signedInAgain(t, who);
  });
  afterAll(() => t.close());

  it('is refused by every trader call with 403 before anything is done, whatever the body', async () => {
    const traderCalls = (await loadCalls()).filter((call) => call.access === 'trader');
    // The money and market calls, at least: the list is read from the declarations, so a new one is covered too.
    expect(traderCalls.map((call) => call.path)).toEqual(
      expect.arrayContaining(['/api/market/offers/', '/api/market/trade/', '/api/market/chat/', '/api/user/wallet/', '/api/user/overview/']),
    );
    const before = await countsOf(t);
    const bodies = [{ type: 'list' }, { type: 'open', offer, amount: '100', payment_method: 'Bank Transfer' }, { type: 'confirm_withdrawal' }];
    for (const call of traderCalls) {
      const path = call.path.replace('{channel}', 'x'.repeat(20));
      const statuses = new Set<number>();
      for (const body of bodies) {
        const response = await t.app.inject({
          method: call.method.toUpperCase() as 'POST',
          url: path,
          headers: { authorization: `Bearer ${operator.token}`, 'content-type': 'application/json' },
          payload: JSON.stringify(body),
        });
        // A body the call's schema refuses is answered 400 first (as for any session); any other is the role's 403.
        expect([400, 403], `${call.method} ${path} ${JSON.stringify(body)}`).toContain(response.statusCode);
        statuses.add(response.statusCode);
        if (response.statusCode === 403) {
          expect(response.json()).toEqual({ success: false, code: 'operator.not_a_trader', info: "Operators do not trade: sign in with a trader's account." });
        }
      }
      // Each call met a body it takes, so its 403 was seen, not only its schema's 400.
      expect([...statuses], `${call.method} ${path}`).toContain(403);
    }
    expect(await countsOf(t)).toEqual(before);
  });

  it('keeps the account calls every signed-in user has: notifications, sign-in history, logout', async () => {
    expect((await t.post('/api/user/notifications/', { type: 'list' }, { token: operator.token })).status).toBe(200);
    expect((await t.post('/api/security/sessions/', { type: 'list' }, { token: operator.token })).status).toBe(200);
  });

  it('is granted from the command line only, and the change is in the audit log, which no one can rewrite', async () => {
    const who = await trader(t);
    expect((await setUserRole(t.app.db, who.username, 'operator')).ok).toBe(true);
    const rows = await t.app.db.query<{ actor: string; actor_role: string; actor_id: string | null; action: string; target: string; before: unknown; after: unknown }>(
      'SELECT actor, actor_role, actor_id, action, target, before, after FROM audit_log WHERE target = $1',
      [who.username],
    );
    expect(rows).toEqual([
      { actor: 'command line', actor_role: 'command line', actor_id: null, action: 'role_changed', target: who.username, before: { role: 'trader' }, after: { role: 'operator' } },
    ]);
    await expect(t.app.db.query("UPDATE audit_log SET reason = 'rewritten' WHERE target = $1", [who.username])).rejects.toThrow(/append-only/);
    await expect(t.app.db.query('DELETE FROM audit_log WHERE target = $1', [who.username])).rejects.toThrow(/append-only/);
    await expect(t.app.db.query('TRUNCATE audit_log')).rejects.toThrow(/append-only/);
    expect(await t.app.db.query('SELECT 1 FROM audit_log WHERE target = $1', [who.username])).toHaveLength(1);
  });
});
