import { beforeAll, describe, expect, it } from 'vitest';
import type { Conversation } from '../../contracts/trade.ts';
import { readMigrations } from '../../server/src/infra/db/migrate.ts';
import { dbTargets, type TestApp } from '../support/server.ts';
import { conversationsOf, openTrade, tradingSuite, type Trader } from '../support/server-trades.ts';

/**
 * Migration 037: on a database that had conversations before the unread counts (036), what was written then counts
 * as read, for both parties; only what comes after the migration is unread. Replayed here on a database brought to
 * "just after 036" by emptying `conversation_reads`, as 036 left every older trade.
 */
describe.each(dbTargets)('the read marks of conversations older than the unread counts, on %s', (target) => {
  const suite = tradingSuite(target, { CHAT_MESSAGES_PER_MINUTE: '1000' });
  let t: TestApp, seller: Trader, buyer: Trader, offer: number;
  beforeAll(() => void ({ t, seller, buyer, offer } = suite));

  const send = (who: Trader, channel: string, text: string) =>
    t.post(`/api/market/chat/${channel}/`, { type: 'send_message', message_type: 'text', text }, { token: who.token });
  const unreadOf = async (who: Trader, channel: string) =>
    ((await conversationsOf(t, who)).body.info as Conversation[]).find((entry) => entry.channel === channel)?.unread;

  it('marks every older message read for buyer and seller, keeps a newer mark, and counts what comes after', async () => {
    const older = await openTrade(t, buyer, offer, '100', 'SEPA');
    const quiet = await openTrade(t, buyer, offer, '120', 'SEPA');
    for (const text of ['one', 'two', 'three']) expect((await send(buyer, older, text)).status).toBe(200);
    expect((await send(seller, older, 'back')).status).toBe(200);
    // As 036 left a database that had these trades: no read marks at all, so everything counted. The counts are kept
    // with the marks since 041, which counts them again from the marks when replayed.
    const migrations = await readMigrations();
    const recount = migrations.find((migration) => migration.version === 41);
    expect(recount?.name).toBe('041_conversation_unread_counts.sql');
    await t.app.db.query('DELETE FROM conversation_reads');
    await t.app.db.exec(recount!.sql);
    expect(await unreadOf(seller, older)).toBe(3);
    expect(await unreadOf(buyer, older)).toBe(1);
    await t.app.db.query('DELETE FROM conversation_reads');
    // A mark of the buyer's written since (newer than the backfill would write) stays as it is.
    const { id: firstId } = await t.app.db.one<{ id: string }>(
      `SELECT min(m.id)::text AS id FROM chat_messages m JOIN trades tr ON tr.id = m.trade_id WHERE tr.channel = $1 AND m.sender_id IS NOT NULL`,
      [older],
    );
    await t.app.db.query(
      `INSERT INTO conversation_reads (trade_id, user_id, last_read_id)
       SELECT tr.id, tr.buyer_id, $2 FROM trades tr WHERE tr.channel = $1`,
      [older, firstId],
    );

    const backfill = migrations.find((migration) => migration.version === 37);
    expect(backfill?.name).toBe('037_conversation_reads_backfill.sql');
    await t.app.db.exec(backfill!.sql);
    await t.app.db.exec(recount!.sql);

    expect(await unreadOf(seller, older)).toBe(0);
    // The buyer's own mark was kept: the seller's answer came after it.
    expect(await unreadOf(buyer, older)).toBe(1);
    // The trade's system messages only (no trader wrote there): nothing unread, before or after.
    expect(await unreadOf(seller, quiet)).toBe(0);
    expect((await send(buyer, older, 'after the migration')).status).toBe(200);
    expect(await unreadOf(seller, older)).toBe(1);
  });
});
