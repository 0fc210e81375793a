import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  http,
  parseEther,
  type Address,
  type Hex,
  type PublicClient,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { hardhat } from 'viem/chains';
import { BroadcastRefused, BroadcastWaiting } from '../../server/src/chain/adapter.ts';
import type { EvmHotWallet, EvmNetworkConfig, EvmToken } from '../../server/src/chain/evm/config.ts';
import type { EvmPayer } from '../../server/src/chain/evm/evm-chain.ts';
import { HotWalletConfigError, openHotWallet, type HotWallet, type HotWalletDeps } from '../../server/src/chain/evm/hot-wallet.ts';
import type { Db } from '../../server/src/infra/db/db.ts';
import { migrate } from '../../server/src/infra/db/migrate.ts';
import { openEmptyPglite } from '../support/databases.ts';
import { openPostgres } from '../../server/src/infra/db/postgres.ts';
import { startEvmNode, type EvmNode } from '../support/evm-node.ts';
import { deployUsdt, type UsdtToken } from '../support/evm-token.ts';
import { createScratchDatabase, dbTargets, TestClock, type ScratchDatabase } from '../support/server.ts';

/**
 * The EVM hot wallet (server/src/chain/evm/hot-wallet.ts) against a real Hardhat node: exact amounts and fees,
 * one payment per reference across retries and a crash between storing and sending, a stuck transaction
 * replaced at the same nonce, a wallet short of funds left waiting, the key file's checks, an external signer.
 */
let node: EvmNode;
let folder: string;
let usdt: UsdtToken;
let tokens: EvmToken[];
beforeAll(async () => {
  node = await startEvmNode();
  folder = await mkdtemp(join(tmpdir(), 'peerex-hot-wallet-'));
  usdt = await deployUsdt(node.url);
  tokens = [{ ticker: 'USDT', contract: usdt.address, decimals: 6 }];
}, 120_000);
afterAll(async () => {
  await node?.stop();
  if (folder) await rm(folder, { recursive: true, force: true });
});

const REPLACE_AFTER_SECONDS = 60;
const CONFIRMATIONS = 3;

const clients = () => {
  const transport = http(node.url);
  return {
    reader: createPublicClient({ chain: hardhat, transport }) as PublicClient,
    funder: createWalletClient({ chain: hardhat, transport }),
    tester: createTestClient({ chain: hardhat, mode: 'hardhat', transport }),
  };
};

let files = 0;
/** A fresh hot-wallet key in a file of this mode (every test pays from its own wallet: its own nonces and balance). */
async function keyFile(mode = 0o600, text?: string) {
  const key = generatePrivateKey();
  files += 1;
  const path = join(folder, `hot-${files}.key`);
  await writeFile(path, text ?? `${key}\n`);
  await chmod(path, mode);
  return { path, account: privateKeyToAccount(key) };
}

const freshAddress = () => privateKeyToAccount(generatePrivateKey()).address;

const networkConfig = (hotWallet: EvmHotWallet): EvmNetworkConfig => ({
  network: 'ethereum',
  chainId: node.chainId,
  rpcUrl: node.url,
  wsUrl: undefined,
  confirmations: CONFIRMATIONS,
  native: 'ETH',
  tokens,
  startBlock: undefined,
  hotWallet,
  coldAddresses: [],
  replaceAfterSeconds: REPLACE_AFTER_SECONDS,
  blocksPerPage: 100,
});

/** Sends `value` wei from one of the node's funded accounts and waits for its block. */
async function fund(to: Address, value: bigint) {
  const { reader, funder } = clients();
  const [from] = (await funder.getAddresses()) as [Address];
  const hash = await funder.sendTransaction({ account: from, to, value });
  await reader.waitForTransactionReceipt({ hash });
}

/**
 * Contracts that receive the coin: one that refuses it always (REVERT), one that takes it once and refuses it
 * while it holds a balance (SELFBALANCE - CALLVALUE must be 0). Creation code that returns the runtime code.
 */
const REFUSES_ALWAYS = '0x6460006000fd6000526005601bf3' as Hex;
const ACCEPTS_ONCE = '0x600e600c600039600e6000f34734900315600c57600080fd5b00' as Hex;

/** Deploys creation code from a funded account; with automining off, mines its block. */
async function deploy(code: Hex, mine = false): Promise<Address> {
  const { reader, funder, tester } = clients();
  const [from] = (await funder.getAddresses()) as [Address];
  const hash = await funder.sendTransaction({ account: from, data: code });
  if (mine) await tester.mine({ blocks: 1 });
  const receipt = await reader.waitForTransactionReceipt({ hash });
  if (!receipt.contractAddress) throw new Error('no contract deployed');
  return receipt.contractAddress;
}

/** A client whose sendRawTransaction never reaches the node (the process died before it, or the node lost it). */
function unsentClient(reader: PublicClient, how: 'throws' | 'drops'): PublicClient {
  return {
    ...reader,
    sendRawTransaction: async () => {
      if (how === 'throws') throw new Error('socket hang up');
      return `0x${'00'.repeat(32)}` as Hex;
    },
  } as PublicClient;
}

/** An external signer as Clef or Web3Signer serve one: eth_accounts and eth_signTransaction over HTTP JSON-RPC. */
async function startSigner(listed: Address, signsWith: PrivateKeyAccount) {
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      void (async () => {
        const { id, method, params } = JSON.parse(body) as { id: number; method: string; params: Record<string, string>[] };
        let result: unknown;
        if (method === 'eth_accounts') result = [listed.toLowerCase()];
        else if (method === 'eth_signTransaction') {
          const asked = params[0] as Record<string, string>;
          const raw = await signsWith.signTransaction({
            type: 'eip1559',
            chainId: Number(asked.chainId),
            nonce: Number(asked.nonce),
            to: asked.to as Address,
            value: BigInt(asked.value ?? '0x0'),
            data: (asked.data ?? '0x') as Hex,
            gas: BigInt(asked.gas as string),
            maxFeePerGas: BigInt(asked.maxFeePerGas as string),
            maxPriorityFeePerGas: BigInt(asked.maxPriorityFeePerGas as string),
          });
          // Clef's answer: the raw transaction and its fields.
          result = { raw, tx: asked };
        }
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify(result === undefined ? { jsonrpc: '2.0', id, error: { code: -32601, message: `no ${method}` } } : { jsonrpc: '2.0', id, result }));
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('no port');
  return { url: `http://127.0.0.1:${address.port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe.each(dbTargets)('the EVM hot wallet on %s', (target) => {
  let db: Db;
  let scratch: ScratchDatabase | undefined;
  beforeAll(async () => {
    if (target === 'postgres') {
      scratch = await createScratchDatabase();
      db = await openPostgres({ url: scratch.url });
    } else {
      db = await openEmptyPglite();
    }
    await migrate(db);
  });
  afterAll(async () => {
    await db?.close();
    await scratch?.drop();
  });

  const clock = new TestClock();
  const open = async (hotWallet: EvmHotWallet, more: Partial<HotWalletDeps> = {}): Promise<HotWallet> =>
    openHotWallet({ db, config: networkConfig(hotWallet), client: clients().reader, now: clock.now, ...more });

  /** A hot wallet on a new key file, funded with `funds` wei. */
  async function fundedWallet(funds: bigint, more: Partial<HotWalletDeps> = {}) {
    const { path } = await keyFile();
    const wallet = await open({ kind: 'key-file', path }, more);
    if (funds > 0n) await fund(wallet.address, funds);
    return { wallet, path };
  }

  let references = 0;
  const reference = () => `withdrawal:${target}-${(references += 1)}`;

  const attemptsOf = (ref: string) =>
    db.query<{ hash: string; raw: string; attempt: number }>('SELECT hash, raw, attempt FROM evm_hot_wallet_attempts WHERE reference = $1 ORDER BY attempt', [ref]);
  const paymentOf = (ref: string) =>
    db.maybe<{ nonce: string; outcome: string | null; mined_hash: string | null }>(
      'SELECT nonce::text AS nonce, outcome, mined_hash FROM evm_hot_wallet_payments WHERE reference = $1',
      [ref],
    );

  it('pays the exact wei, and the wallet pays exactly that plus the gas the block charged', async () => {
    const { reader, tester } = clients();
    // What the EVM adapter (server/src/chain/evm/evm-chain.ts) is given: the hot wallet as its payer.
    const { wallet }: { wallet: EvmPayer & HotWallet } = await fundedWallet(parseEther('1'));
    const to = freshAddress();
    const before = await reader.getBalance({ address: wallet.address });

    const ref = reference();
    const { txid } = await wallet.pay({ reference: ref, to, asset: 'ETH', amount: '0.123456789012345678' });
    const receipt = await reader.waitForTransactionReceipt({ hash: txid as Hex });

    expect(receipt.status).toBe('success');
    expect((await reader.getTransaction({ hash: txid as Hex })).type).toBe('eip1559');
    expect(await reader.getBalance({ address: to })).toBe(123_456_789_012_345_678n);
    expect(before - (await reader.getBalance({ address: wallet.address }))).toBe(123_456_789_012_345_678n + receipt.gasUsed * receipt.effectiveGasPrice);

    // Followed until the network's confirmations, then settled as paid.
    expect(await wallet.confirmations([txid])).toEqual(new Map([[txid, 1]]));
    expect(await wallet.tend()).toEqual([]);
    expect((await paymentOf(ref))?.outcome).toBeNull();
    await tester.mine({ blocks: CONFIRMATIONS - 1 });
    expect(await wallet.tend()).toEqual([]);
    expect(await paymentOf(ref)).toEqual({ nonce: '0', outcome: 'paid', mined_hash: txid });
    expect(await wallet.confirmations([txid])).toEqual(new Map([[txid, CONFIRMATIONS]]));
  });

  it('pays once per reference: asked again, at once or later, it answers the same transaction and sends nothing more', async () => {
    const { reader } = clients();
    const { wallet } = await fundedWallet(parseEther('1'));
    const to = freshAddress();
    const request = { reference: reference(), to, asset: 'ETH', amount: '0.25' };

    const [first, second] = await Promise.all([wallet.pay(request), wallet.pay(request)]);
    expect(second.txid).toBe(first.txid);
    await reader.waitForTransactionReceipt({ hash: first.txid as Hex });
    expect(await wallet.pay(request)).toEqual(first);

    expect(await reader.getBalance({ address: to })).toBe(parseEther('0.25'));
    expect(await reader.getTransactionCount({ address: wallet.address, blockTag: 'pending' })).toBe(1);
    expect(await attemptsOf(request.reference)).toHaveLength(1);
    // The same reference for another payment is a bug upstream: never paid, never mistaken for the first.
    await expect(wallet.pay({ ...request, amount: '0.26' })).rejects.toThrow(/already paid 0.25 ETH/);
  });

  it('gives each payment its own nonce when several are paid at once', async () => {
    const { reader } = clients();
    const { wallet } = await fundedWallet(parseEther('1'));
    const payments = [1, 2, 3].map((n) => ({ reference: reference(), to: freshAddress(), asset: 'ETH', amount: `0.0${n}` }));

    // Mining held while they are sent: an automining Hardhat node refuses a nonce above the next one ("transactions
    // can't be queued when automining") where a real node queues it, and the order the three reach it is the race's.
    await clients().tester.setAutomine(false);
    let sent;
    try {
      sent = await Promise.all(payments.map((payment) => wallet.pay(payment)));
      await clients().tester.mine({ blocks: 1 });
    } finally {
      await clients().tester.setAutomine(true);
    }
    await Promise.all(sent.map(({ txid }) => reader.waitForTransactionReceipt({ hash: txid as Hex })));

    const nonces = await Promise.all(payments.map(async (payment) => (await paymentOf(payment.reference))?.nonce));
    expect([...nonces].sort()).toEqual(['0', '1', '2']);
    for (const [index, payment] of payments.entries()) expect(await reader.getBalance({ address: payment.to })).toBe(parseEther(`0.0${index + 1}`));
  });

  it('a crash after the payment is stored and before it is sent: the restarted wallet sends the same bytes, and pays once', async () => {
    const { reader } = clients();
    const { path, wallet: first } = await fundedWallet(parseEther('1'), {
      afterStore: () => {
        throw new Error('killed between storing and sending');
      },
    });
    const to = freshAddress();
    const request = { reference: reference(), to, asset: 'ETH', amount: '0.5' };

    await expect(first.pay(request)).rejects.toThrow('killed between storing and sending');
    const [stored] = await attemptsOf(request.reference);
    expect(stored).toBeDefined();
    expect(await reader.getTransactionCount({ address: first.address, blockTag: 'pending' })).toBe(0);
    expect(await reader.getBalance({ address: to })).toBe(0n);

    const restarted = await open({ kind: 'key-file', path });
    const { txid } = await restarted.pay(request);
    expect(txid).toBe(stored?.hash);
    const receipt = await reader.waitForTransactionReceipt({ hash: txid as Hex });
    expect(receipt.status).toBe('success');
    expect(await reader.getBalance({ address: to })).toBe(parseEther('0.5'));
    expect(await restarted.pay(request)).toEqual({ txid });
    expect(await reader.getTransactionCount({ address: first.address, blockTag: 'pending' })).toBe(1);
    expect(await attemptsOf(request.reference)).toEqual([stored]);
  });

  it('a send that never reached the node: the next round sends the stored bytes again', async () => {
    const { reader } = clients();
    const { path, wallet: lost } = await fundedWallet(parseEther('1'), { client: unsentClient(clients().reader, 'throws') });
    const to = freshAddress();
    const request = { reference: reference(), to, asset: 'ETH', amount: '0.125' };

    await expect(lost.pay(request)).rejects.toThrow('socket hang up');
    const [stored] = await attemptsOf(request.reference);

    const restarted = await open({ kind: 'key-file', path });
    expect(await restarted.tend()).toEqual([]);
    const receipt = await reader.waitForTransactionReceipt({ hash: stored?.hash as Hex });
    expect(receipt.status).toBe('success');
    expect(await reader.getBalance({ address: to })).toBe(parseEther('0.125'));
    expect(await restarted.pay(request)).toEqual({ txid: stored?.hash });
    expect(await reader.getTransactionCount({ address: restarted.address, blockTag: 'pending' })).toBe(1);
  });

  describe('a transaction stuck unmined', () => {
    beforeAll(async () => {
      await clients().tester.setAutomine(false);
    });
    afterAll(async () => {
      await clients().tester.setAutomine(true);
    });

    it('is replaced at the same nonce with higher fees once it waited long enough; only one is mined, and tend follows it', async () => {
      const { reader, tester } = clients();
      const { wallet: hot } = await fundedMined(parseEther('1'));
      const to = freshAddress();
      const ref = reference();

      const { txid: first } = await hot.pay({ reference: ref, to, asset: 'ETH', amount: '0.3' });
      expect(await reader.getTransaction({ hash: first as Hex })).toMatchObject({ blockNumber: null });
      expect(await hot.tend()).toEqual([]);
      expect(await attemptsOf(ref)).toHaveLength(1);

      const old = await reader.getTransaction({ hash: first as Hex });
      clock.advance(REPLACE_AFTER_SECONDS * 1000);
      const [replaced] = await hot.tend();
      expect(replaced?.reference).toBe(ref);
      expect(replaced?.txid).not.toBe(first);
      const replacement = await reader.getTransaction({ hash: replaced?.txid as Hex });
      expect(replacement.nonce).toBe(old.nonce);
      expect((replacement.maxFeePerGas as bigint) * 8n).toBeGreaterThanOrEqual((old.maxFeePerGas as bigint) * 9n);
      expect((replacement.maxPriorityFeePerGas as bigint) * 8n).toBeGreaterThanOrEqual((old.maxPriorityFeePerGas as bigint) * 9n);
      expect(await attemptsOf(ref)).toHaveLength(2);

      await tester.mine({ blocks: 1 });
      expect((await reader.getTransactionReceipt({ hash: replaced?.txid as Hex })).status).toBe('success');
      await expect(reader.getTransactionReceipt({ hash: first as Hex })).rejects.toThrow();
      expect(await reader.getBalance({ address: to })).toBe(parseEther('0.3'));
      expect(await hot.tend()).toEqual([]);
      // The watcher still following the first attempt sees the payment confirm.
      expect(await hot.confirmations([first])).toEqual(new Map([[first, 1]]));
    });

    it('when the first attempt is mined instead of its replacement, tend answers the first', async () => {
      const { reader, tester } = clients();
      const { path, wallet: hot } = await fundedMined(parseEther('1'));
      const to = freshAddress();
      const ref = reference();

      const { txid: first } = await hot.pay({ reference: ref, to, asset: 'ETH', amount: '0.4' });
      clock.advance(REPLACE_AFTER_SECONDS * 1000);
      // The replacement is signed and stored, but the node never gets it.
      const dropping = await open({ kind: 'key-file', path }, { client: unsentClient(reader, 'drops') });
      const [replaced] = await dropping.tend();
      expect(replaced?.txid).not.toBe(first);

      await tester.mine({ blocks: 1 });
      expect(await hot.tend()).toEqual([{ reference: ref, txid: first }]);
      expect(await hot.tend()).toEqual([]);
      expect(await reader.getBalance({ address: to })).toBe(parseEther('0.4'));
      expect(await hot.confirmations([replaced?.txid as string])).toEqual(new Map([[replaced?.txid, 1]]));
      expect(await paymentOf(ref)).toMatchObject({ mined_hash: first, outcome: null });
    });

    it('sets aside what unmined payments will take: a second payment the balance cannot cover as well waits', async () => {
      const { tester } = clients();
      const { wallet: hot } = await fundedMined(parseEther('0.05'));
      await hot.pay({ reference: reference(), to: freshAddress(), asset: 'ETH', amount: '0.03' });
      const second = reference();
      await expect(hot.pay({ reference: second, to: freshAddress(), asset: 'ETH', amount: '0.03' })).rejects.toThrow(BroadcastWaiting);
      expect(await paymentOf(second)).toBeUndefined();
      await tester.mine({ blocks: 1 });
    });

    it('a payment mined but reverted is answered with its problem on every round, never confirmed or settled as paid', async () => {
      const { reader, tester } = clients();
      const once = await deploy(ACCEPTS_ONCE, true);
      const { wallet: hot } = await fundedMined(parseEther('1'));
      const [accepted, refused] = [reference(), reference()];

      // Each estimate passes (the contract holds nothing yet); in the block, the second finds the first's coin there.
      const first = await hot.pay({ reference: accepted, to: once, asset: 'ETH', amount: '0.01' });
      const second = await hot.pay({ reference: refused, to: once, asset: 'ETH', amount: '0.02' });
      await tester.mine({ blocks: 1 });
      expect((await reader.getTransactionReceipt({ hash: first.txid as Hex })).status).toBe('success');
      expect((await reader.getTransactionReceipt({ hash: second.txid as Hex })).status).toBe('reverted');
      expect(await reader.getBalance({ address: once })).toBe(parseEther('0.01'));

      const problem = [{ reference: refused, txid: second.txid, problem: 'reverted' }];
      expect(await hot.tend()).toEqual(problem);
      expect(await hot.confirmations([first.txid, second.txid])).toEqual(new Map([[first.txid, 1]]));
      await tester.mine({ blocks: CONFIRMATIONS });
      expect(await hot.tend()).toEqual(problem);
      expect(await paymentOf(accepted)).toMatchObject({ outcome: 'paid' });
      expect(await paymentOf(refused)).toMatchObject({ outcome: 'reverted', mined_hash: second.txid });
      expect(await hot.tend()).toEqual(problem);
      expect(await hot.pay({ reference: refused, to: once, asset: 'ETH', amount: '0.02' })).toEqual(second);
    });

    it('a transaction from elsewhere mined at a payment\'s nonce: the payment is answered as nonce-taken on every round', async () => {
      const { reader, tester } = clients();
      const { wallet: hot, account } = await fundedMined(parseEther('1'));
      const to = freshAddress();
      const ref = reference();

      const { txid } = await hot.pay({ reference: ref, to, asset: 'ETH', amount: '0.2' });
      const ours = await reader.getTransaction({ hash: txid as Hex });
      // The same key used outside the server, at the same nonce, paying more: the node takes it instead.
      const foreign = await account.signTransaction({
        type: 'eip1559',
        chainId: node.chainId,
        nonce: ours.nonce,
        to: freshAddress(),
        value: 1n,
        gas: 21_000n,
        maxFeePerGas: (ours.maxFeePerGas as bigint) * 2n,
        maxPriorityFeePerGas: (ours.maxPriorityFeePerGas as bigint) * 2n,
      });
      await reader.sendRawTransaction({ serializedTransaction: foreign });
      await tester.mine({ blocks: 1 });

      expect(await reader.getBalance({ address: to })).toBe(0n);
      expect(await hot.tend()).toEqual([{ reference: ref, txid, problem: 'nonce-taken' }]);
      expect(await hot.tend()).toEqual([{ reference: ref, txid, problem: 'nonce-taken' }]);
      expect(await hot.confirmations([txid])).toEqual(new Map());
      expect(await paymentOf(ref)).toMatchObject({ outcome: null, mined_hash: null });
    });

    /** A funded wallet while blocks are mined by hand: the funding is mined before the test starts. */
    async function fundedMined(funds: bigint) {
      const { path, account } = await keyFile();
      const wallet = await open({ kind: 'key-file', path });
      const { reader, funder, tester } = clients();
      const [from] = (await funder.getAddresses()) as [Address];
      const hash = await funder.sendTransaction({ account: from, to: wallet.address, value: funds });
      await tester.mine({ blocks: 1 });
      await reader.waitForTransactionReceipt({ hash });
      return { wallet, path, account };
    }
  });

  it('short of the coin or of its gas: the payment waits, nothing is stored or sent, no nonce is used', async () => {
    const { reader } = clients();
    const { wallet } = await fundedWallet(parseEther('0.01'));
    const ref = reference();
    const to = freshAddress();

    // The amount is there, the gas is not.
    await expect(wallet.pay({ reference: ref, to, asset: 'ETH', amount: '0.01' })).rejects.toThrow(BroadcastWaiting);
    await expect(wallet.pay({ reference: ref, to, asset: 'ETH', amount: '0.01' })).rejects.toThrow(/short of ETH/);
    expect(await paymentOf(ref)).toBeUndefined();
    expect(await reader.getTransactionCount({ address: wallet.address, blockTag: 'pending' })).toBe(0);

    await fund(wallet.address, parseEther('0.01'));
    const { txid } = await wallet.pay({ reference: ref, to, asset: 'ETH', amount: '0.01' });
    expect((await reader.getTransaction({ hash: txid as Hex })).nonce).toBe(0);
    await reader.waitForTransactionReceipt({ hash: txid as Hex });
    expect(await reader.getBalance({ address: to })).toBe(parseEther('0.01'));
  });

  it('pays USDT by transfer on its contract: the exact units, and only the gas in ETH', async () => {
    const { reader } = clients();
    const { wallet } = await fundedWallet(parseEther('0.1'));
    await usdt.mint(wallet.address, 100_000_000n);
    const to = freshAddress();
    const ethBefore = await reader.getBalance({ address: wallet.address });

    const { txid } = await wallet.pay({ reference: reference(), to, asset: 'USDT', amount: '12.345678' });
    const receipt = await reader.waitForTransactionReceipt({ hash: txid as Hex });
    expect(receipt.status).toBe('success');
    const sent = await reader.getTransaction({ hash: txid as Hex });
    expect(sent.to?.toLowerCase()).toBe(usdt.address.toLowerCase());
    expect(sent.value).toBe(0n);
    expect(await usdt.balanceOf(to)).toBe(12_345_678n);
    expect(await usdt.balanceOf(wallet.address)).toBe(100_000_000n - 12_345_678n);
    expect(ethBefore - (await reader.getBalance({ address: wallet.address }))).toBe(receipt.gasUsed * receipt.effectiveGasPrice);

    // 87.654322 USDT left: a unit more waits; finer than 6 decimals is refused.
    const short = reference();
    await expect(wallet.pay({ reference: short, to, asset: 'USDT', amount: '87.654323' })).rejects.toThrow(/short of USDT/);
    await expect(wallet.pay({ reference: reference(), to, asset: 'USDT', amount: '0.0000001' })).rejects.toThrow(BroadcastRefused);
    expect(await paymentOf(short)).toBeUndefined();
    expect(await reader.getTransactionCount({ address: wallet.address, blockTag: 'pending' })).toBe(1);
  });

  it('a USDT payment from a wallet without ETH for its gas waits', async () => {
    const { wallet } = await fundedWallet(0n);
    await usdt.mint(wallet.address, 5_000_000n);
    const ref = reference();
    await expect(wallet.pay({ reference: ref, to: freshAddress(), asset: 'USDT', amount: '1' })).rejects.toThrow(/short of ETH/);
    expect(await paymentOf(ref)).toBeUndefined();
  });

  it('refuses a payment the chain would revert (a contract that refuses the coin), sending nothing', async () => {
    const { reader } = clients();
    const refuser = await deploy(REFUSES_ALWAYS);
    const { wallet } = await fundedWallet(parseEther('0.1'));
    const ref = reference();
    await expect(wallet.pay({ reference: ref, to: refuser, asset: 'ETH', amount: '0.01' })).rejects.toThrow(BroadcastRefused);
    expect(await paymentOf(ref)).toBeUndefined();
    expect(await reader.getTransactionCount({ address: wallet.address, blockTag: 'pending' })).toBe(0);
  });

  it('refuses an asset the network does not carry and an amount finer than the coin, storing nothing', async () => {
    const { wallet } = await fundedWallet(parseEther('0.1'));
    const refused = [
      { reference: reference(), to: freshAddress(), asset: 'BTC', amount: '0.01' },
      { reference: reference(), to: freshAddress(), asset: 'ETH', amount: '0.0000000000000000001' },
      { reference: reference(), to: freshAddress(), asset: 'ETH', amount: '0' },
      { reference: reference(), to: '0x1234' as Address, asset: 'ETH', amount: '0.01' },
    ];
    for (const request of refused) {
      await expect(wallet.pay(request)).rejects.toThrow(BroadcastRefused);
      expect(await paymentOf(request.reference)).toBeUndefined();
    }
  });

  it('refuses a key file others may read in production, and a file that holds no private key', async () => {
    const open644 = await keyFile(0o644);
    await expect(open({ kind: 'key-file', path: open644.path }, { production: true })).rejects.toThrow(HotWalletConfigError);
    await expect(open({ kind: 'key-file', path: open644.path }, { production: true })).rejects.toThrow(/chmod 600/);
    expect((await open({ kind: 'key-file', path: open644.path })).address).toBe(open644.account.address);

    const private600 = await keyFile(0o600);
    expect((await open({ kind: 'key-file', path: private600.path }, { production: true })).address).toBe(private600.account.address);

    for (const text of ['not a key\n', `0x${'ab'.repeat(31)}\n`, `0x${'00'.repeat(32)}\n`, `{"crypto":{}}`]) {
      const bad = await keyFile(0o600, text);
      await expect(open({ kind: 'key-file', path: bad.path })).rejects.toThrow(HotWalletConfigError);
    }
    await expect(open({ kind: 'key-file', path: join(folder, 'missing.key') })).rejects.toThrow(HotWalletConfigError);
  });

  describe('with an external signer (eth_signTransaction)', () => {
    it('pays through the signer: the key never reaches the server', async () => {
      const { reader } = clients();
      const key = privateKeyToAccount(generatePrivateKey());
      const signer = await startSigner(key.address, key);
      try {
        const wallet = await open({ kind: 'signer', url: signer.url, address: key.address });
        expect(wallet.address).toBe(key.address);
        await fund(wallet.address, parseEther('1'));
        const to = freshAddress();
        const { txid } = await wallet.pay({ reference: reference(), to, asset: 'ETH', amount: '0.7' });
        const receipt = await reader.waitForTransactionReceipt({ hash: txid as Hex });
        expect(receipt.from.toLowerCase()).toBe(key.address.toLowerCase());
        expect(await reader.getBalance({ address: to })).toBe(parseEther('0.7'));
      } finally {
        await signer.close();
      }
    });

    it('refuses a signer that does not sign for the configured address, and a signature by another key', async () => {
      const key = privateKeyToAccount(generatePrivateKey());
      const other = privateKeyToAccount(generatePrivateKey());
      const honest = await startSigner(key.address, key);
      const lying = await startSigner(key.address, other);
      try {
        await expect(open({ kind: 'signer', url: honest.url, address: other.address })).rejects.toThrow(HotWalletConfigError);

        const wallet = await open({ kind: 'signer', url: lying.url, address: key.address });
        await fund(wallet.address, parseEther('1'));
        const ref = reference();
        await expect(wallet.pay({ reference: ref, to: freshAddress(), asset: 'ETH', amount: '0.1' })).rejects.toThrow(/not by the hot wallet/);
        expect(await paymentOf(ref)).toBeUndefined();
        expect(await clients().reader.getTransactionCount({ address: wallet.address, blockTag: 'pending' })).toBe(0);
      } finally {
        await honest.close();
        await lying.close();
      }
    });
  });
});
