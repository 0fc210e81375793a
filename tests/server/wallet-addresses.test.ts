/**
 * user/wallet/ `addresses` (docs/rules.md "Wallets"): each trader's own BIP-32 deposit address per network,
 * handed out once, the same on every call, never shared. On PGlite (one connection) concurrent calls run
 * one after another, so there the checks prove the sequential rules; on PostgreSQL they prove the locking.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { NETWORK_KEYS, walletAddresses, type BuiltInNetworkKey, type NetworkKey, type WalletAddressEntry } from '../../contracts/wallet.ts';
import { withHelpers, type Db, type Queryable } from '../../server/src/infra/db/db.ts';
import { depositAddresses } from '../../server/src/wallets/addresses.ts';
import { CHAIN_NETWORKS } from '../../server/src/wallets/networks.ts';
import { createTestApp, dbTargets, type TestApp } from '../support/server.ts';
import { insertUser } from '../support/server-money.ts';
import { trader, type Trader } from '../support/server-trades.ts';

/** What each network's deposit addresses look like: P2WPKH bech32, EIP-55 hex, Tron base58check. */
const ADDRESS_FORMAT: Record<BuiltInNetworkKey, RegExp> = {
  bitcoin: /^bc1q[02-9ac-hj-np-z]{38}$/,
  ethereum: /^0x[0-9a-fA-F]{40}$/,
  tron: /^T[1-9A-HJ-NP-Za-km-z]{33}$/,
  litecoin: /^ltc1q[02-9ac-hj-np-z]{38}$/,
};

const addressesCall = (t: TestApp, who: Trader) => t.post<WalletAddressEntry[]>('/api/user/wallet/', { type: 'addresses' }, { token: who.token });

async function addressesOf(t: TestApp, who: Trader): Promise<WalletAddressEntry[]> {
  const answer = await addressesCall(t, who);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(walletAddresses.safeParse(answer.body.info).success).toBe(true);
  return answer.body.info;
}

/** network → address, from an `addresses` answer (USDT's ethereum address is checked equal to ETH's elsewhere). */
const addressMap = (entries: readonly WalletAddressEntry[]) =>
  new Map(entries.flatMap((entry) => entry.networks.map((network) => [network.key, network.address] as const)));

const storedRows = (t: TestApp, userIds?: readonly string[]) =>
  t.app.db.query<{ user_id: string; network: string; derivation_index: number; address: string }>(
    `SELECT user_id, network, derivation_index, address FROM deposit_addresses
     WHERE $1::bigint[] IS NULL OR user_id = ANY ($1::bigint[]) ORDER BY network, derivation_index`,
    [userIds ? [...userIds] : null],
  );

/** Every stored address is the key's child at its index, valid on its network and in its format. */
async function expectDerived(t: TestApp) {
  const rows = await storedRows(t);
  expect(rows.length).toBeGreaterThan(0);
  for (const row of rows) {
    const network = row.network as BuiltInNetworkKey;
    expect(NETWORK_KEYS).toContain(network);
    expect(row.address, `${network} #${row.derivation_index}`).toBe(t.app.walletKeys.addressAt(network, row.derivation_index));
    expect(row.address).toMatch(ADDRESS_FORMAT[network]);
    // The network's own check (bech32 / base58check checksum, EIP-55 case) takes it back unchanged.
    expect(CHAIN_NETWORKS[network].parseAddress(row.address)).toBe(row.address);
  }
}

describe.each(dbTargets)('user/wallet/ addresses on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(() => t.close());

  it('answers one entry per coin with its price, the available balance to its places and the caller\'s address per network', async () => {
    const alice = await trader(t, { BTC: '1.5', USDT: '250.25' });
    const entries = await addressesOf(t, alice);
    expect(entries.map((entry) => [entry.coin.ticker, entry.balance, entry.networks.map((network) => network.key)])).toEqual([
      ['BTC', '1.50000000', ['bitcoin']],
      ['ETH', '0.00000000', ['ethereum']],
      ['USDT', '250.250000', ['ethereum', 'tron']],
      ['LTC', '0.00000000', ['litecoin']],
    ]);
    expect(entries[0]?.coin).toEqual({ id: 1, label: 'Bitcoin', ticker: 'BTC', image: '/coins/btc.svg', price: '97000.00', decimal_places: 8 });
    expect(entries[2]?.networks.map(({ name, image }) => [name, image])).toEqual([
      ['Ethereum (ERC20)', '/coins/eth.svg'],
      ['Tron (TRC20)', '/coins/trx.svg'],
    ]);
    // The price is the current one, as the prices plugin last wrote it.
    await t.app.db.query("UPDATE coins SET usd_price = 101234.56 WHERE ticker = 'BTC'");
    expect((await addressesOf(t, alice))[0]?.coin.price).toBe('101234.56');
    await t.app.db.query("UPDATE coins SET usd_price = 97000.00 WHERE ticker = 'BTC'");
  });

  it('hands out the BIP-32 child of each network\'s key, in that network\'s format, the same for USDT on Ethereum as for ETH', async () => {
    const bob = await trader(t);
    const entries = await addressesOf(t, bob);
    const [btc, eth, usdt, ltc] = entries;
    expect(usdt?.networks[0]?.address).toBe(eth?.networks[0]?.address);
    const rows = await storedRows(t, [bob.id]);
    // One row per network (ethereum once, for ETH and USDT alike), each the address the call answered.
    expect(rows.map((row) => row.network).sort()).toEqual([...NETWORK_KEYS].sort());
    const answered = addressMap(entries);
    for (const row of rows) {
      expect(answered.get(row.network as NetworkKey)).toBe(t.app.walletKeys.addressAt(row.network as NetworkKey, row.derivation_index));
    }
    expect(btc?.networks[0]?.address).toMatch(ADDRESS_FORMAT.bitcoin);
    expect(eth?.networks[0]?.address).toMatch(ADDRESS_FORMAT.ethereum);
    expect(usdt?.networks[1]?.address).toMatch(ADDRESS_FORMAT.tron);
    expect(ltc?.networks[0]?.address).toMatch(ADDRESS_FORMAT.litecoin);
    await expectDerived(t);
  });

  it('answers the same addresses on every later call, without allocating again', async () => {
    const carol = await trader(t);
    const first = await addressesOf(t, carol);
    const before = await storedRows(t);
    const again = await Promise.all([addressesOf(t, carol), addressesOf(t, carol), addressesOf(t, carol)]);
    for (const answer of again) expect(answer).toEqual(first);
    expect(await storedRows(t)).toEqual(before);
  });

  it('gives 20 traders 20 different addresses on every network, at consecutive indexes', async () => {
    const users = await Promise.all(Array.from({ length: 20 }, () => insertUser(t.app.db, 'addr')));
    const ids = users.map((user) => user.id);
    for (const id of ids) await t.app.wallets.addresses.entries(id);
    const rows = await storedRows(t, ids);
    for (const network of NETWORK_KEYS) {
      const own = rows.filter((row) => row.network === network);
      expect(new Set(own.map((row) => row.user_id)).size, network).toBe(20);
      expect(new Set(own.map((row) => row.address)).size, network).toBe(20);
    }
    // No address is anyone else's either, and each network's indexes run 0..n-1 without a gap.
    const all = await storedRows(t);
    for (const network of NETWORK_KEYS) {
      const indexes = all.filter((row) => row.network === network).map((row) => row.derivation_index);
      expect(indexes, network).toEqual(indexes.map((_, position) => position));
      expect(new Set(all.filter((row) => row.network === network).map((row) => row.address)).size).toBe(indexes.length);
    }
    await expectDerived(t);
  });

  it('refuses a caller without a session', async () => {
    const answer = await t.post('/api/user/wallet/', { type: 'addresses' });
    expect(answer.status).toBe(401);
    expect(answer.body.success).toBe(false);
  });
});

describe.each(dbTargets)('deposit addresses asked at once on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(() => t.close());

  it('10 traders asking at once get indexes 0..9 on every network: all distinct, no gaps, each their own', async () => {
    const users = await Promise.all(Array.from({ length: 10 }, () => insertUser(t.app.db, 'race')));
    const answers = await Promise.all(users.map((user) => t.app.wallets.addresses.entries(user.id)));
    const rows = await storedRows(t);
    for (const network of NETWORK_KEYS) {
      const own = rows.filter((row) => row.network === network);
      expect(own.map((row) => row.derivation_index), network).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      expect(new Set(own.map((row) => row.user_id)).size, network).toBe(10);
    }
    // Each trader was answered their own stored address.
    for (const [position, user] of users.entries()) {
      const answered = addressMap(answers[position] ?? []);
      for (const row of rows.filter((stored) => stored.user_id === user.id)) expect(answered.get(row.network as NetworkKey)).toBe(row.address);
    }
    await expectDerived(t);
  });

  it('one trader asking 5 times at once gets one address per network', async () => {
    const user = await insertUser(t.app.db, 'twice');
    const answers = await Promise.all(Array.from({ length: 5 }, () => t.app.wallets.addresses.entries(user.id)));
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    const rows = await storedRows(t, [user.id]);
    expect(rows).toHaveLength(NETWORK_KEYS.length);
    // The next index on each network, after the 10 of the test before.
    expect(rows.map((row) => row.derivation_index)).toEqual(NETWORK_KEYS.map(() => 10));
  });
});

describe.each(dbTargets)('watching new deposit addresses on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(() => t.close());

  const serviceWith = (watch: (network: NetworkKey, address: string) => Promise<void>, error = vi.fn()) =>
    depositAddresses({ db: t.app.db, keys: t.app.walletKeys, now: t.clock.now, watch, confirmationsToCredit: () => 1, log: { error } });

  it('tells the chain adapter about each new address once, after it is stored, and never again', async () => {
    const user = await insertUser(t.app.db, 'watch');
    const watched: [NetworkKey, string, boolean][] = [];
    const service = serviceWith(async (network, address) => {
      // Committed by then: another connection already reads it.
      const stored = await t.app.db.maybe('SELECT 1 AS found FROM deposit_addresses WHERE network = $1 AND address = $2', [network, address]);
      watched.push([network, address, stored !== undefined]);
    });
    const entries = await service.entries(user.id);
    const answered = addressMap(entries);
    // The watches run side by side, so they finish in any order.
    expect(watched.map(([network]) => network).sort()).toEqual([...NETWORK_KEYS].sort());
    for (const [network, address, stored] of watched) {
      expect(address).toBe(answered.get(network));
      expect(stored).toBe(true);
    }
    await service.entries(user.id);
    expect(watched).toHaveLength(NETWORK_KEYS.length);
  });

  it('answers a trader who has every address with one read and no transaction', async () => {
    const user = await insertUser(t.app.db, 'cheap');
    const statements: string[] = [];
    let transactions = 0;
    const query: Queryable['query'] = (sql, params, options) => {
      statements.push(sql);
      return t.app.db.query(sql, params, options);
    };
    // `one` and `maybe` built on the counting `query`, so no statement goes uncounted.
    const counting: Db = {
      ...withHelpers(query, (sql) => t.app.db.exec(sql)),
      kind: t.app.db.kind,
      transaction: (work) => {
        transactions += 1;
        return t.app.db.transaction(work);
      },
      listen: (...args) => t.app.db.listen(...args),
      close: () => t.app.db.close(),
    };
    const service = depositAddresses({ db: counting, keys: t.app.walletKeys, now: t.clock.now, watch: async () => undefined, confirmationsToCredit: () => 1, log: { error: vi.fn() } });
    const first = await service.entries(user.id);
    expect(transactions).toBe(1);
    statements.length = 0;
    expect(await service.entries(user.id)).toEqual(first);
    expect(statements).toHaveLength(1);
    expect(transactions).toBe(1);
  });

  it('hands the address out even when the adapter fails to watch it, and logs the failure', async () => {
    const user = await insertUser(t.app.db, 'nowatch');
    const error = vi.fn();
    const service = serviceWith(async (network) => {
      if (network === 'tron') throw new Error('indexer unreachable');
    }, error);
    const entries = await service.entries(user.id);
    expect(addressMap(entries).get('tron')).toMatch(ADDRESS_FORMAT.tron);
    expect(error).toHaveBeenCalledTimes(1);
    expect(error.mock.calls[0]?.[0]).toMatchObject({ network: 'tron', address: addressMap(entries).get('tron') });
  });
});
