import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublicClient, createWalletClient, http, keccak256, parseEther, type Address } from 'viem';
import { hardhat } from 'viem/chains';
import { fleetEnvironment, freePort, logDirectory, serverProcess, type ChaosServer } from '../../bench/support/chaos-cluster.ts';
import { insertTrader, signIn } from '../../bench/support/chaos-traders.ts';
import { openPostgres } from '../../server/src/infra/db/postgres.ts';
import type { Db } from '../../server/src/infra/db/db.ts';
import { deposit, expectLedgerClean } from '../support/server-money.ts';
import { ethereumEnvironment, hotWalletKeyFile, startEvmNode, type EvmNode } from '../support/evm-node.ts';
import { createScratchDatabase, type ScratchDatabase } from '../support/server.ts';

/**
 * A withdrawal on a real EVM node survives a crash at the worst moment: a real server process (server/src/main.ts,
 * NODE_ENV=production) is killed with SIGKILL after it stored the signed transaction and before the node got it.
 * The test stands between the server and the node (a JSON-RPC relay it owns) and kills the server when the first
 * eth_sendRawTransaction arrives, without passing it on. After the restart the server sends the stored bytes, and
 * the recipient is paid exactly once.
 */
const withoutPostgres = !process.env.DATABASE_URL;
const RECIPIENT = '0x00000000000000000000000000000000000c0ffe' as Address;

describe.skipIf(withoutPostgres)('an EVM withdrawal across a SIGKILL (PostgreSQL)', () => {
  let node: EvmNode;
  let relay: Server;
  let database: ScratchDatabase;
  let server: ChaosServer;
  let db: Db;
  let hotKey: ReturnType<typeof hotWalletKeyFile>;
  /** The first raw transaction the relay held back, once the server it killed for it is gone. */
  let heldBack: string | undefined;
  let holding = false;

  beforeAll(async () => {
    node = await startEvmNode();
    // The hot wallet: a fresh key in a file only its owner can read, funded by the node's first account.
    hotKey = hotWalletKeyFile();
    const funder = createWalletClient({ chain: hardhat, transport: http(node.url) });
    const [from] = (await funder.getAddresses()) as [Address];
    await funder.sendTransaction({ account: from, to: hotKey.address, value: parseEther('10') });

    const relayPort = await freePort();
    relay = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', async () => {
        const calls = JSON.parse(body) as { method: string; params?: unknown[] } | { method: string; params?: unknown[] }[];
        const raw = (Array.isArray(calls) ? calls : [calls]).find((call) => call.method === 'eth_sendRawTransaction');
        if (raw && !holding) {
          holding = true;
          await server.kill();
          response.destroy();
          heldBack = String(raw.params?.[0]);
          return;
        }
        const answer = await fetch(node.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        response.writeHead(answer.status, { 'content-type': 'application/json' });
        response.end(await answer.text());
      });
    });
    await new Promise<void>((resolve) => relay.listen(relayPort, '127.0.0.1', resolve));

    database = await createScratchDatabase();
    server = await serverProcess('evm-crash', {
      ...fleetEnvironment(database.url, undefined),
      CHAIN_POLL_SECONDS: '1',
      ...ethereumEnvironment(node, { RPC_URL: `http://127.0.0.1:${relayPort}`, CONFIRMATIONS: '1', HOT_WALLET_KEY_FILE: hotKey.path }),
    }, logDirectory());
    await server.start();
    db = await openPostgres({ url: database.url, poolSize: 2 });
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    await db?.close();
    await database?.drop();
    await new Promise((resolve) => relay?.close(resolve));
    await node?.stop();
    hotKey?.remove();
  });

  it('sends the stored transaction after the restart and pays the recipient exactly once', async () => {
    const userId = await insertTrader(db, 'crash_withdrawer');
    const eth = await db.one<{ id: number }>("SELECT id FROM coins WHERE ticker = 'ETH'");
    await deposit(db, userId, eth.id, '2');
    const session = await signIn(server.port, 'crash_withdrawer', '10.77.0.1');
    const wallet = (body: unknown) =>
      fetch(`http://127.0.0.1:${server.port}/api/user/wallet/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${session.token}`, 'x-forwarded-for': '10.77.0.1' },
        body: JSON.stringify(body),
      });
    const preview = await wallet({ type: 'preview_withdrawal', amount: '1.25', mode: 'crypto', recipient: RECIPIENT, ticker: 'ETH', network: 'ethereum' });
    expect(preview.status, await preview.clone().text()).toBe(200);
    const confirmed = await wallet({ type: 'confirm_withdrawal' });
    expect(confirmed.status, await confirmed.clone().text()).toBe(200);

    // The watcher signs, stores and sends: the relay holds the send back and kills the process.
    await expect.poll(() => heldBack, { timeout: 30_000 }).toBeDefined();
    expect(server.running()).toBe(false);
    const reader = createPublicClient({ chain: hardhat, transport: http(node.url), cacheTime: 0 });
    expect(await reader.getBalance({ address: RECIPIENT })).toBe(0n);

    await server.start();
    await expect
      .poll(async () => (await db.one<{ status: string }>("SELECT status FROM wallet_transactions WHERE trans_type = 'withdrawal' AND user_id = $1", [userId])).status, {
        timeout: 30_000,
      })
      .toBe('completed');
    // 1.25 ETH less the 0.0008 ETH withdrawal fee, once.
    expect(await reader.getBalance({ address: RECIPIENT })).toBe(parseEther('1.2492'));
    const row = await db.one<{ txid: string }>("SELECT txid FROM wallet_transactions WHERE trans_type = 'withdrawal' AND user_id = $1", [userId]);
    const mined = await reader.getTransaction({ hash: row.txid as `0x${string}` });
    // What was mined is the very transaction stored and held back before the crash.
    expect(await reader.getTransactionReceipt({ hash: row.txid as `0x${string}` })).toMatchObject({ status: 'success' });
    expect(mined.hash).toBe(row.txid);
    expect(keccak256(heldBack as `0x${string}`)).toBe(row.txid);
    expect(server.unexpectedExits).toEqual([]);
    await expectLedgerClean(db);
  }, 120_000);
});
