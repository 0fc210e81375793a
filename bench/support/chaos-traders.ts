/**
 * Traders and offers for runs against real server processes: inserted directly (what is measured is faults,
 * not signing up), balances through the ledger like any deposit, sessions through the real login call.
 */
import type { Db } from '../../server/src/infra/db/db.ts';
import { postEntry } from '../../server/src/ledger/ledger.ts';
import { createPasswordHasher, OWASP_ARGON2ID } from '../../server/src/infra/passwords.ts';

export const PASSWORD = 'chaos-password-1';

let passwordHash: Promise<string> | undefined;

/** A trader with `btc` available (deposited through the ledger); answers the user id. */
export async function insertTrader(db: Db, username: string, btc?: string): Promise<string> {
  passwordHash ??= createPasswordHasher(OWASP_ARGON2ID).hash(PASSWORD);
  const row = await db.one<{ id: string }>(
    `INSERT INTO users (username, email, password_hash, created_at) VALUES ($1, $2, $3, now()) RETURNING id`,
    [username, `${username}@chaos.test`, await passwordHash],
  );
  if (btc) {
    await db.transaction((tx) =>
      postEntry(tx, {
        reference: `deposit:chaos-${username}`,
        at: new Date(),
        postings: [
          { account: { kind: 'deposits', coinId: 1 }, amount: `-${btc}` },
          { account: { kind: 'available', userId: row.id, coinId: 1 }, amount: btc },
        ],
      }),
    );
  }
  return row.id;
}

/** A sell offer of BTC for EUR at rate 1, SEPA, 1–1,000,000 EUR; answers its id. */
export async function insertOffer(db: Db, sellerId: string): Promise<number> {
  const row = await db.one<{ id: number }>(
    `INSERT INTO offers (user_id, offer_type, coin_id, currency_code, rate, min_amount, max_amount, payment_method_ids, created_at, updated_at)
     VALUES ($1, 'sell', 1, 'EUR', 1, 1, 1000000, ARRAY[(SELECT id FROM payment_methods WHERE name = 'SEPA')], now(), now())
     RETURNING id::int`,
    [sellerId],
  );
  return row.id;
}

export interface Session {
  token: string;
  websocketToken: string;
}

/** Signs in over HTTP on `port`, from `address` as a proxy would report it. */
export async function signIn(port: number, username: string, address: string): Promise<Session> {
  const answer = await fetch(`http://127.0.0.1:${port}/api/security/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ username, password: PASSWORD, device: 'chaos' }),
  });
  const body = (await answer.json()) as { info: { token?: string; user?: { websocket_token?: string } } };
  if (!body.info.token || !body.info.user?.websocket_token) throw new Error(`login of ${username} failed: ${JSON.stringify(body)}`);
  return { token: body.info.token, websocketToken: body.info.user.websocket_token };
}
