import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublicClient, createTestClient, createWalletClient, getAddress, http, parseEther, type Address, type Hash } from 'viem';
import { hardhat } from 'viem/chains';
import { ALLOWLIST_WAIT_HOURS, type AllowlistStatus } from '../../contracts/account-protections.ts';
import type { WalletAddressEntry, WithdrawalPreview } from '../../contracts/wallet.ts';
import { held, walletRows } from '../support/server-chain.ts';
import { expectLedgerClean } from '../support/server-money.ts';
import { createTestApp, type TestApp } from '../support/server.ts';
import { trader } from '../support/server-trades.ts';
import { hotWalletKeyFile, startEvmNode, type EvmNode } from '../support/evm-node.ts';

/**
 * An EVM network beyond the built-in ones, added as docs/chains.md "Adding a network" tells an operator: its
 * EVM_POLYGON_* variables and two reference rows (a coin, its coin_networks row), no code. Polygon runs on a node
 * of its own beside Ethereum's, as the two chains would: a trader's address is the same on both (one EVM
 * address per trader), so one node read as both networks would see each transfer twice.
 */
const ETHEREUM_CONFIRMATIONS = 3;
const POLYGON_CONFIRMATIONS = 5;

/** What docs/chains.md "Adding a network" has the operator run for POL, word for word. */
const ADD_POLYGON = [
  "INSERT INTO coins (label, ticker, decimal_places, usd_price, image) VALUES ('Polygon', 'POL', 8, 0.25, '/coins/pol.svg')",
  `INSERT INTO coin_networks (coin_id, name, key, image, withdrawal_fee)
  SELECT id, 'Polygon', 'polygon', '/coins/pol.svg', 0.01 FROM coins WHERE ticker = 'POL'`,
];

describe('an EVM network added by configuration and reference data alone', () => {
  let ethereum: EvmNode;
  let polygon: EvmNode;
  let t: TestApp;
  let hotKey: ReturnType<typeof hotWalletKeyFile>;
  let hot: Address;
  const clients = (node: EvmNode) => {
    const transport = http(node.url);
    return {
      reader: createPublicClient({ chain: hardhat, transport, cacheTime: 0 }),
      wallet: createWalletClient({ chain: hardhat, transport }),
      tester: createTestClient({ chain: hardhat, mode: 'hardhat', transport }),
    };
  };
  /** The node's first funded, unlocked account pays `to` in the chain's own coin. */
  const send = async (node: EvmNode, to: string, amount: string): Promise<Hash> => {
    const { wallet } = clients(node);
    const [payer] = (await wallet.getAddresses()) as [Address];
    return wallet.sendTransaction({ account: payer, to: to as Address, value: parseEther(amount) });
  };
  const mineBlocks = async (node: EvmNode, blocks: number) => {
    for (let block = 0; block < blocks; block += 1) await clients(node).tester.request({ method: 'evm_mine', params: undefined });
  };
  const wallet = <T>(token: string, body: Record<string, unknown>) => t.post<T>('/api/user/wallet/', body, { token });

  beforeAll(async () => {
    [ethereum, polygon] = await Promise.all([startEvmNode(), startEvmNode()]);
    hotKey = hotWalletKeyFile();
    hot = hotKey.address;
    t = await createTestApp('pglite', {
      env: {
        EVM_NETWORKS: 'ethereum,polygon',
        EVM_ETHEREUM_CHAIN_ID: String(ethereum.chainId),
        EVM_ETHEREUM_RPC_URL: ethereum.url,
        EVM_ETHEREUM_CONFIRMATIONS: String(ETHEREUM_CONFIRMATIONS),
        EVM_ETHEREUM_START_BLOCK: '0',
        EVM_POLYGON_CHAIN_ID: String(polygon.chainId),
        EVM_POLYGON_RPC_URL: polygon.url,
        EVM_POLYGON_NATIVE: 'POL',
        EVM_POLYGON_CONFIRMATIONS: String(POLYGON_CONFIRMATIONS),
        EVM_POLYGON_START_BLOCK: '0',
        EVM_POLYGON_HOT_WALLET_KEY_FILE: hotKey.path,
      },
    });
    // The operator's rows, added while the server runs: the next `addresses` and watcher round see them.
    for (const statement of ADD_POLYGON) await t.app.db.query(statement);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await Promise.all([ethereum?.stop(), polygon?.stop()]);
    hotKey?.remove();
  });

  /** A trader and their deposit addresses, as the wallet page asks for them. */
  async function traderWithAddresses(balances: Record<string, string> = {}) {
    const who = await trader(t, balances);
    const answer = await wallet<WalletAddressEntry[]>(who.token, { type: 'addresses' });
    expect(answer.status).toBe(200);
    const networkOf = (ticker: string, key: string) => answer.body.info.find((entry) => entry.coin.ticker === ticker)?.networks.find((network) => network.key === key);
    return { ...who, networkOf };
  }

  it("lists the new network for its coin with an EIP-55 address, the trader's address on every EVM chain, and its own confirmations", async () => {
    const who = await traderWithAddresses();
    const pol = who.networkOf('POL', 'polygon');
    expect(pol).toMatchObject({ name: 'Polygon', image: '/coins/pol.svg', confirmations: POLYGON_CONFIRMATIONS });
    expect(pol?.address).toBe(getAddress(pol?.address ?? ''));
    // Derived from Ethereum's account key at the trader's own index there: coins sent on the wrong EVM chain reach their owner.
    expect(pol?.address).toBe(who.networkOf('ETH', 'ethereum')?.address);
    expect(who.networkOf('ETH', 'ethereum')?.confirmations).toBe(ETHEREUM_CONFIRMATIONS);
    const stored = await t.app.db.query<{ network: string; derivation_index: number; address: string }>(
      'SELECT network, derivation_index, address FROM deposit_addresses WHERE user_id = $1 AND network IN ($2, $3) ORDER BY network',
      [who.id, 'ethereum', 'polygon'],
    );
    expect(stored.map((row) => row.network)).toEqual(['ethereum', 'polygon']);
    expect(stored[1]?.derivation_index).toBe(stored[0]?.derivation_index);
    expect(t.app.walletKeys.addressAt('polygon', stored[1]?.derivation_index ?? -1)).toBe(pol?.address);
  });

  it('records a POL deposit on its own network and credits it at its confirmations, never as ETH', async () => {
    const who = await traderWithAddresses();
    const address = who.networkOf('POL', 'polygon')?.address ?? '';
    const txid = await send(polygon, address, '40');
    expect(await t.app.chain.sync()).toMatchObject({ seen: 1, credited: 0 });
    expect(await walletRows(t, who.id)).toMatchObject([{ ticker: 'POL', network: 'polygon', status: 'pending', amount_crypto: '40', txid, address }]);

    await mineBlocks(polygon, POLYGON_CONFIRMATIONS - 2);
    expect(await t.app.chain.sync()).toMatchObject({ credited: 0 });
    await mineBlocks(polygon, 1);
    expect(await t.app.chain.sync()).toMatchObject({ credited: 1 });
    expect(await held(t, 'POL', 'available', who.id)).toBe('40');
    expect(await held(t, 'ETH', 'available', who.id)).toBe('0');

    // The same address on Ethereum's chain receives ETH, credited as ETH on `ethereum` and nothing more on `polygon`.
    const eth = await send(ethereum, address, '0.1');
    await mineBlocks(ethereum, ETHEREUM_CONFIRMATIONS - 1);
    expect(await t.app.chain.sync()).toMatchObject({ seen: 1, credited: 1 });
    expect(await held(t, 'ETH', 'available', who.id)).toBe('0.1');
    expect(await held(t, 'POL', 'available', who.id)).toBe('40');
    expect((await walletRows(t, who.id)).map((row) => [row.ticker, row.network, row.txid, row.status])).toEqual(
      expect.arrayContaining([
        ['POL', 'polygon', txid, 'completed'],
        ['ETH', 'ethereum', eth, 'completed'],
      ]),
    );
    await expectLedgerClean(t.app.db);
  });

  it("checks a withdrawal's address with Ethereum's rules on the new network and pays it from the network's hot wallet", async () => {
    const who = await traderWithAddresses({ POL: '10' });
    const recipient = '0x00000000000000000000000000000000000a11ce';
    const ask = (body: Record<string, unknown>) =>
      wallet<WithdrawalPreview>(who.token, { type: 'preview_withdrawal', amount: '4', mode: 'crypto', ticker: 'POL', network: 'polygon', ...body });

    const wrongChecksum = getAddress('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed').replace('Ae', 'ae');
    for (const bad of ['bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu', wrongChecksum]) {
      const refused = await ask({ recipient: bad });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ success: false, info: 'This is not a valid Polygon address.' });
    }
    const preview = await ask({ recipient });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.info).toMatchObject({ scope: 'external', amount_crypto: '4.00000000', fee_crypto: '0.01000000', receive_crypto: '3.99000000' });
    expect((await wallet(who.token, { type: 'confirm_withdrawal' })).status).toBe(200);

    await send(polygon, hot, '10');
    expect(await t.app.chain.sync()).toMatchObject({ broadcast: 1, completed: 1 });
    expect(await clients(polygon).reader.getBalance({ address: getAddress(recipient) })).toBe(parseEther('3.99'));
    expect(await clients(ethereum).reader.getBalance({ address: getAddress(recipient) })).toBe(0n);
    expect((await walletRows(t, who.id)).find((row) => row.trans_type === 'withdrawal')).toMatchObject({ ticker: 'POL', network: 'polygon', status: 'completed' });
    expect(await held(t, 'POL', 'available', who.id)).toBe('6');
    await expectLedgerClean(t.app.db);
  });

  it('lists an address on a new network in the withdrawal allowlist, usable after the wait like any other', async () => {
    const who = await traderWithAddresses({ POL: '10' });
    const allowlist = (body: Record<string, unknown>) => t.post<AllowlistStatus>('/api/security/withdrawal_allowlist/', body, { token: who.token });
    const recipient = getAddress('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed');
    // The choices are the built-in networks, then the ones the operator added.
    expect((await allowlist({ type: 'status' })).body.info.networks).toEqual(['bitcoin', 'ethereum', 'tron', 'litecoin', 'polygon']);
    // An address that is not one of the network's is refused, as on a built-in network.
    expect(await allowlist({ type: 'add', network: 'polygon', address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', label: '', password: who.password })).toMatchObject({
      status: 400,
    });
    const added = await allowlist({ type: 'add', network: 'polygon', address: recipient, label: 'cold', password: who.password });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.info.addresses).toMatchObject([{ network: 'polygon', address: recipient, label: 'cold' }]);
    expect((await allowlist({ type: 'enable' })).status).toBe(200);

    const preview = { type: 'preview_withdrawal', amount: '4', mode: 'crypto', ticker: 'POL', network: 'polygon', recipient };
    // Adding an address holds withdrawals for the wait (the security hold), as on every network.
    expect((await wallet(who.token, preview)).status).toBe(409);
    t.clock.advance(ALLOWLIST_WAIT_HOURS * 3_600_000 + 60_000);
    expect((await wallet(who.token, preview)).status).toBe(200);
    // A network this server cannot check addresses on is not one an address can be listed on.
    expect((await allowlist({ type: 'add', network: 'arbitrum', address: recipient, label: '', password: who.password })).status).toBe(400);
  });

  it('leaves a network neither built in nor configured unoffered and unwatched', async () => {
    await t.app.db.query(
      `INSERT INTO coin_networks (coin_id, name, key, image, withdrawal_fee) SELECT id, 'Arbitrum One', 'arbitrum', '/coins/eth.svg', 0.0001 FROM coins WHERE ticker = 'ETH'`,
    );
    try {
      const who = await traderWithAddresses({ ETH: '1' });
      expect(who.networkOf('ETH', 'arbitrum')).toBeUndefined();
      expect(who.networkOf('ETH', 'ethereum')).toBeDefined();
      const refused = await wallet(who.token, { type: 'preview_withdrawal', amount: '0.5', mode: 'crypto', ticker: 'ETH', network: 'arbitrum', recipient: getAddress('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed') });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ success: false, info: 'ETH cannot be withdrawn on this network. Choose Ethereum (ERC20).' });
      await t.app.chain.sync();
      expect(await t.app.db.query("SELECT network FROM deposit_addresses WHERE network = 'arbitrum'")).toEqual([]);
      expect(await t.app.db.query("SELECT network FROM chain_cursors WHERE network = 'arbitrum'")).toEqual([]);
    } finally {
      await t.app.db.query("DELETE FROM coin_networks WHERE key = 'arbitrum'");
    }
  });
});
