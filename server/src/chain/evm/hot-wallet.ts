import {
  encodeFunctionData,
  erc20Abi,
  getAddress,
  isAddress,
  keccak256,
  parseTransaction,
  parseUnits,
  recoverTransactionAddress,
  type Hex,
  type PublicClient,
  type TransactionReceipt,
  type TransactionSerializedEIP1559,
} from 'viem';
import { currentFees } from './evm-chain.ts';
import { KeyFileError, readPrivateKeyFile } from './key-files.ts';
import type { Db } from '../../infra/db/db.ts';
import { BroadcastRefused, BroadcastWaiting } from '../adapter.ts';
import type { ChainLog } from '../watcher.ts';
import { NATIVE_DECIMALS, tokenOf, type EvmNetworkConfig } from './config.ts';
import { hotWalletRepository, type HotWalletPaymentRow } from './hot-wallet.repository.ts';

/**
 * The hot wallet of one EVM network: it pays withdrawals with EIP-1559 transactions, exactly once per withdrawal
 * reference across crashes and retries (migration 028).
 *
 * The one rule: a transaction is sent only after it is stored. Its nonce is reserved (the wallet's row locked) and
 * its signed bytes stored under the reference in ONE database transaction; only then are the bytes sent. A crash
 * before the commit leaves nothing (no nonce taken, nothing signed that could be sent); a crash after it leaves
 * the stored bytes, which a retry of `pay` or the next `tend` sends again. Every transaction of one payment has
 * the same nonce, so however many of its attempts the network sees, at most one of them is ever mined.
 */
export interface HotWallet {
  readonly address: `0x${string}`;
  /**
   * Pays `amount` of `asset` to `to` once per `reference`, and answers the transaction id to follow.
   *
   * Asked again for a reference it already paid, it answers that payment's current transaction (the mined
   * attempt, or the latest one) and sends its stored bytes again if the node does not know them, before it
   * checks anything else. Otherwise it throws BroadcastWaiting when the wallet is short of the coin or of the gas
   * once what its unmined payments will take is set aside, and BroadcastRefused for an asset this network does not
   * carry, an amount finer than the coin's decimals, or a payment the node's estimate says would revert (a contract
   * that refuses the coin, a token that refuses the transfer); either way nothing is stored or sent and no nonce is
   * used. Once stored, a transaction the node refuses for the wallet's funds (someone else emptied it) throws
   * BroadcastWaiting as well, and its same bytes are sent again by later calls. Any other error (the node, the
   * signer, the database) may be retried: a retry never pays twice.
   */
  pay(request: HotWalletPayment): Promise<{ txid: string }>;
  /**
   * Once per round, for each payment the chain has not settled: sends its latest attempt again if the node lost
   * it; replaces it at the same nonce with fees raised by at least 12.5% (and to at least the market's) when it
   * is the wallet's next transaction to be mined, the node holds it, and it was signed more than
   * `config.replaceAfterSeconds` ago (by `now`); follows the attempt a block holds (a re-organisation that takes it away
   * makes the payment unmined again); settles the payment once that block has `config.confirmations`.
   *
   * Answers each payment whose current transaction (the mined attempt, else the latest) differs from the one
   * last answered by `pay` or `tend`. A payment that went wrong is answered with a `problem` on EVERY round,
   * never treated as paid, and logged at error (a reverted one once, when it settles): `reverted` (mined, but the transaction reverted: nothing was
   * paid, the nonce is spent) or `nonce-taken` (another transaction from this wallet, sent from elsewhere, was
   * mined at its nonce: it can never be mined). Only an operator can decide what to do with either.
   * A node that refuses to take back a lost attempt is logged at warn and tried again next round.
   */
  tend(): Promise<HotWalletTended[]>;
  /**
   * The confirmations of each of these transaction ids, as ChainAdapter.confirmations answers them: a hash of
   * one of this wallet's attempts answers the confirmations of whichever attempt of its payment was mined (a
   * caller still following a replaced attempt sees the payment confirm); any other hash its own. Unmined,
   * reverted, and unknown transactions are left out.
   */
  confirmations(txids: readonly string[]): Promise<Map<string, number>>;
  close(): Promise<void>;
}

export interface HotWalletPayment {
  /** The withdrawal's broadcast reference: one payment per reference, ever. */
  reference: string;
  to: `0x${string}`;
  /** The network's native coin (config.native) or one of config.tokens' tickers. */
  asset: string;
  /** An exact decimal string in coin units (0.5 ETH, 12.34 USDT). */
  amount: string;
}

export interface HotWalletTended {
  reference: string;
  txid: string;
  /** Set when the payment went wrong (see HotWallet.tend): nothing was paid, the operator must look. */
  problem?: 'reverted' | 'nonce-taken';
}

export interface HotWalletDeps {
  db: Db;
  config: EvmNetworkConfig;
  /** A client of the network's node (chain/evm/evm-chain.ts evmClient). */
  client: PublicClient;
  now: () => Date;
  /** NODE_ENV=production: a key file that group or others may read is refused. */
  production?: boolean;
  log?: ChainLog;
  /**
   * Called after a new payment is stored and before its bytes are sent: a process that dies here must pay
   * exactly once after its restart (tests kill a process at this point).
   */
  afterStore?: (stored: { reference: string; txid: string }) => Promise<void> | void;
  /**
   * The node answered the configured chain id: the wallet records itself (and its first nonce) at once. Unset,
   * it waits for its first payment, which the adapter makes only on a verified node: a nonce read from another
   * chain would leave a gap no transaction fills.
   */
  chainVerified?: boolean;
}

/** The hot wallet's configuration cannot be used: the server must not start with it. */
export class HotWalletConfigError extends Error {
  override name = 'HotWalletConfigError';
}

/** Each replacement raises both fee caps by at least this much: nodes take a replacement only for a raise of 10% or more. */
const REPLACEMENT_RAISE_NUMERATOR = 9n; // 9/8 = +12.5%
const REPLACEMENT_RAISE_DENOMINATOR = 8n;

/** A plain transfer of the native coin to an account without code. */
const TRANSFER_GAS = 21_000n;
/**
 * When the node cannot estimate the gas for another reason than a revert (the amount is above the balance during
 * estimation: the balance check then leaves the payment waiting): enough for a native payment to a contract's
 * receive function or an ERC-20 `transfer` (USDT's costs about 63,000 to a fresh holder). An estimate is raised
 * by a quarter: the state may change before it is mined.
 */
const FALLBACK_GAS = 120_000n;

/** How long the external signer may take to answer. */
const SIGNER_TIMEOUT_MS = 15_000;

interface UnsignedPayment {
  chainId: number;
  nonce: number;
  to: `0x${string}`;
  value: bigint;
  data: Hex;
  gas: bigint;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

interface Signer {
  address: `0x${string}`;
  sign(transaction: UnsignedPayment): Promise<Hex>;
}

const raised = (fee: bigint) => (fee * REPLACEMENT_RAISE_NUMERATOR + REPLACEMENT_RAISE_DENOMINATOR - 1n) / REPLACEMENT_RAISE_DENOMINATOR;
const maxOf = (a: bigint, b: bigint) => (a > b ? a : b);
const hex = (value: bigint | number) => `0x${value.toString(16)}` as Hex;

/** Every message along an error's causes (viem wraps the node's answer several times). */
function messagesOf(error: unknown): string {
  const parts: string[] = [];
  for (let current = error, depth = 0; current && depth < 8; depth += 1) {
    if (current instanceof Error) {
      parts.push(current.message);
      const details = (current as { details?: unknown }).details;
      if (typeof details === 'string') parts.push(details);
      current = current.cause;
    } else {
      parts.push(String(current));
      break;
    }
  }
  return parts.join(' | ').toLowerCase();
}

/** "1.5" in a coin of `decimals` places as its smallest units; refused when it is not an exact, positive amount of that coin. */
function unitsOf(amount: string, decimals: number, asset: string): bigint {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(amount);
  if (!match) throw new BroadcastRefused(`${JSON.stringify(amount)} is not a decimal amount of ${asset}`);
  // parseUnits rounds what lies past `decimals`: refused instead, an amount is never rounded.
  if ((match[2]?.length ?? 0) > decimals) throw new BroadcastRefused(`${amount} ${asset} is finer than its ${decimals} decimals`);
  const units = parseUnits(amount, decimals);
  if (units <= 0n) throw new BroadcastRefused(`${amount} ${asset} is not a positive amount`);
  return units;
}

/** The key file's private key; refused when it is not one, or (production) when group or others may read it. */
async function keyFileSigner(path: string, production: boolean): Promise<Signer> {
  let account;
  try {
    account = await readPrivateKeyFile(path, "the hot wallet's key file", production);
  } catch (error) {
    throw error instanceof KeyFileError ? new HotWalletConfigError(error.message) : error;
  }
  return {
    address: account.address,
    sign: (transaction) => account.signTransaction({ type: 'eip1559', ...transaction }),
  };
}

/**
 * A signer that holds the key elsewhere and signs over JSON-RPC `eth_signTransaction` (Clef, Web3Signer, a custody
 * service's endpoint). Credentials in the URL (https://user:secret@host) go in an Authorization header.
 */
async function remoteSigner(url: string, address: `0x${string}`): Promise<Signer> {
  const endpoint = new URL(url);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (endpoint.username !== '' || endpoint.password !== '') {
    headers.authorization = `Basic ${Buffer.from(`${decodeURIComponent(endpoint.username)}:${decodeURIComponent(endpoint.password)}`).toString('base64')}`;
    endpoint.username = '';
    endpoint.password = '';
  }
  let id = 0;
  const call = async (method: string, params: unknown[]): Promise<unknown> => {
    id += 1;
    const response = await fetch(endpoint, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
      signal: AbortSignal.timeout(SIGNER_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`the hot wallet's signer answered ${method} with HTTP ${response.status}`);
    const body = (await response.json()) as { result?: unknown; error?: { message?: string } };
    if (body.error) throw new Error(`the hot wallet's signer refused ${method}: ${body.error.message ?? JSON.stringify(body.error)}`);
    return body.result;
  };

  let accounts: unknown;
  try {
    accounts = await call('eth_accounts', []);
  } catch (error) {
    throw new HotWalletConfigError(`the hot wallet's signer at ${endpoint.origin} did not list its accounts: ${(error as Error).message}`);
  }
  if (!Array.isArray(accounts) || !accounts.some((account) => typeof account === 'string' && account.toLowerCase() === address.toLowerCase())) {
    throw new HotWalletConfigError(`the hot wallet's signer at ${endpoint.origin} does not sign for ${address} (it lists ${JSON.stringify(accounts)})`);
  }
  return {
    address,
    async sign(transaction) {
      const result = await call('eth_signTransaction', [
        {
          from: address,
          to: transaction.to,
          gas: hex(transaction.gas),
          maxFeePerGas: hex(transaction.maxFeePerGas),
          maxPriorityFeePerGas: hex(transaction.maxPriorityFeePerGas),
          value: hex(transaction.value),
          nonce: hex(transaction.nonce),
          data: transaction.data,
          chainId: hex(transaction.chainId),
        },
      ]);
      // Web3Signer answers the raw transaction; Geth's Clef answers { raw, tx }.
      const raw = typeof result === 'string' ? result : (result as { raw?: unknown } | null)?.raw;
      if (typeof raw !== 'string' || !/^0x[0-9a-fA-F]+$/.test(raw)) throw new Error(`the hot wallet's signer answered no raw transaction: ${JSON.stringify(result)}`);
      return raw as Hex;
    },
  };
}

/**
 * Opens the network's hot wallet (config.hotWallet): reads and checks the key file, or checks that the signer
 * signs for the configured address. Throws HotWalletConfigError when it cannot be used.
 */
export async function openHotWallet(deps: HotWalletDeps): Promise<HotWallet> {
  const { db, config, client, now, log, afterStore } = deps;
  const configured = config.hotWallet;
  if (!configured) throw new HotWalletConfigError(`no hot wallet is configured for ${config.network}`);
  const signer =
    configured.kind === 'key-file'
      ? await keyFileSigner(configured.path, deps.production ?? false)
      : await remoteSigner(configured.url, getAddress(configured.address));
  const address = signer.address;
  const network = config.network;
  const repository = hotWalletRepository(db);

  /**
   * Signs, and checks that what came back is exactly the transaction asked for, signed by the wallet's key: a
   * remote signer's answer is stored and sent as it is.
   */
  async function signed(unsigned: UnsignedPayment): Promise<{ raw: Hex; hash: Hex }> {
    const raw = await signer.sign(unsigned);
    let parsed;
    try {
      parsed = parseTransaction(raw);
    } catch (error) {
      throw new Error(`the hot wallet's signer answered an unreadable transaction: ${(error as Error).message}`);
    }
    const same =
      parsed.type === 'eip1559' &&
      parsed.chainId === unsigned.chainId &&
      parsed.nonce === unsigned.nonce &&
      parsed.to?.toLowerCase() === unsigned.to.toLowerCase() &&
      (parsed.value ?? 0n) === unsigned.value &&
      (parsed.data ?? '0x').toLowerCase() === unsigned.data.toLowerCase() &&
      parsed.gas === unsigned.gas &&
      parsed.maxFeePerGas === unsigned.maxFeePerGas &&
      parsed.maxPriorityFeePerGas === unsigned.maxPriorityFeePerGas &&
      (parsed.accessList ?? []).length === 0;
    if (!same) throw new Error(`the hot wallet's signer signed another transaction than the one asked for (nonce ${unsigned.nonce})`);
    const from = await recoverTransactionAddress({ serializedTransaction: raw as TransactionSerializedEIP1559 });
    if (getAddress(from) !== address) throw new Error(`the transaction was signed by ${from}, not by the hot wallet ${address}`);
    return { raw, hash: keccak256(raw) };
  }

  const knows = (hash: string) => client.getTransaction({ hash: hash as Hex }).then(() => true, () => false);

  /**
   * Hands stored bytes to the node. Fine when it knows them already, or when their nonce is spent (by another
   * attempt of the same payment, or from elsewhere: `tend` tells which). A node that finds the wallet short of
   * funds for them leaves the withdrawal waiting.
   */
  async function send(raw: string, hash: string) {
    try {
      await client.sendRawTransaction({ serializedTransaction: raw as Hex });
    } catch (error) {
      if (await knows(hash)) return;
      const messages = messagesOf(error);
      if (messages.includes('nonce too low')) return;
      if (messages.includes('insufficient funds') || messages.includes('enough funds')) {
        throw new BroadcastWaiting(`the hot wallet ${address} on ${network} cannot pay the fee of transaction ${hash}: fund it with ${config.native}`);
      }
      throw error;
    }
  }

  async function marketFees() {
    const fees = await currentFees(client);
    if (!fees) throw new Error(`the ${network} node reports no base fee: the hot wallet signs EIP-1559 transactions only`);
    return fees;
  }

  const currentOf = (payment: Pick<HotWalletPaymentRow, 'mined_hash' | 'hash'>) => payment.mined_hash ?? payment.hash;

  /** The payment already stored under a reference: checked against the request, sent again if the node lost it. */
  async function again(payment: HotWalletPaymentRow, request: HotWalletPayment) {
    const token = payment.token === null ? undefined : tokenOf(config, payment.asset);
    const decimals = token?.decimals ?? NATIVE_DECIMALS;
    let units: bigint | undefined;
    try {
      units = unitsOf(request.amount, decimals, request.asset);
    } catch {
      units = undefined;
    }
    if (payment.asset !== request.asset || payment.recipient.toLowerCase() !== request.to.toLowerCase() || units !== BigInt(payment.units)) {
      throw new Error(
        `reference ${request.reference} already paid ${payment.amount} ${payment.asset} to ${payment.recipient}; ` +
          `asked now for ${request.amount} ${request.asset} to ${request.to}`,
      );
    }
    if (payment.outcome === null && payment.mined_hash === null && !(await knows(payment.hash))) await send(payment.raw, payment.hash);
    const current = currentOf(payment);
    await repository.setReported(payment.reference, current);
    return { txid: current };
  }

  async function pay(request: HotWalletPayment): Promise<{ txid: string }> {
    const existing = await repository.paymentOf(request.reference);
    if (existing) return again(existing, request);

    const token = tokenOf(config, request.asset);
    if (request.asset !== config.native && !token) throw new BroadcastRefused(`${request.asset} is not carried on ${network} by this server`);
    if (!isAddress(request.to, { strict: false })) throw new BroadcastRefused(`${request.to} is not an EVM address`);
    const to = getAddress(request.to);
    const units = unitsOf(request.amount, token?.decimals ?? NATIVE_DECIMALS, request.asset);
    const call = token
      ? { to: token.contract, value: 0n, data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, units] }) }
      : { to, value: units, data: '0x' as Hex };

    // What the chain says, read before the database transaction (which never waits on the node): the balances
    // and the count of mined transactions at one block, the count including the node's pending ones, the fees.
    const head = await client.getBlock({ blockTag: 'latest' });
    const [pendingCount, minedCount, wei, tokenUnits, fees, estimated] = await Promise.all([
      client.getTransactionCount({ address, blockTag: 'pending' }).then(BigInt),
      client.getTransactionCount({ address, blockNumber: head.number }).then(BigInt),
      client.getBalance({ address, blockNumber: head.number }),
      token
        ? client.readContract({ address: token.contract, abi: erc20Abi, functionName: 'balanceOf', args: [address], blockNumber: head.number })
        : Promise.resolve(0n),
      marketFees(),
      // At the same block as the balances: what the node's pending transactions would change is set aside below.
      client.estimateGas({ account: address, ...call, blockNumber: head.number }).then(
        (estimate) => ({ gas: estimate === TRANSFER_GAS ? estimate : (estimate * 5n + 3n) / 4n, reverted: undefined }),
        (error: unknown) => ({ gas: FALLBACK_GAS, reverted: messagesOf(error).includes('revert') ? error : undefined }),
      ),
    ]);
    const { gas } = estimated;

    const outcome = await db.transaction(async (tx) => {
      const inTx = hotWalletRepository(tx);
      await inTx.ensureWallet(network, address, pendingCount);
      const nextNonce = await inTx.lockWallet(network, address);
      // Under the wallet's lock: a concurrent pay of the same reference that got here first is found, not repeated.
      const stored = await inTx.paymentOf(request.reference);
      if (stored) return { stored };

      // The balances read at `head` do not show what this wallet's payments not yet in a block will take.
      const reserved = await inTx.reservedFrom(network, address, minedCount);
      const weiNeeded = call.value + gas * fees.maxFeePerGas;
      if (wei - reserved.wei < weiNeeded) {
        throw new BroadcastWaiting(
          `the hot wallet ${address} on ${network} is short of ${config.native}: it holds ${wei} wei, ${reserved.wei} of it promised to unmined payments, ` +
            `and this ${token ? 'transfer' : 'payment'} needs ${weiNeeded} wei${token ? ' of gas' : ' with its gas'}`,
        );
      }
      if (token) {
        const promised = reserved.tokens.get(token.contract) ?? 0n;
        if (tokenUnits - promised < units) {
          throw new BroadcastWaiting(
            `the hot wallet ${address} on ${network} is short of ${token.ticker}: it holds ${tokenUnits} units, ${promised} of them promised to ` +
              `unmined payments, and this payment needs ${units}`,
          );
        }
      }

      // The wallet holds enough, and the chain would still revert it: the recipient contract refuses the coin, the
      // token refuses the transfer (a paused token, a blocked address). Sending it would only burn its gas.
      if (estimated.reverted !== undefined) {
        throw new BroadcastRefused(
          `the chain refuses this ${request.asset} payment to ${to}: ${(estimated.reverted as Error).message.split('\n')[0]}`,
        );
      }

      // Someone else may have sent from this wallet: never below the chain's own count.
      const nonce = maxOf(nextNonce, pendingCount);
      const { raw, hash } = await signed({ chainId: config.chainId, nonce: Number(nonce), gas, ...fees, ...call });
      const at = now();
      await inTx.insertPayment({
        reference: request.reference,
        network,
        wallet: address,
        nonce,
        asset: request.asset,
        token: token?.contract ?? null,
        recipient: to,
        amount: request.amount,
        units,
        createdAt: at,
        hash,
      });
      await inTx.insertAttempt({ hash, reference: request.reference, attempt: 1, raw, gas, ...fees, createdAt: at });
      await inTx.setNextNonce(network, address, nonce + 1n);
      return { created: { raw, hash } };
    });

    if (outcome.stored) return again(outcome.stored, request);
    const { raw, hash } = outcome.created;
    await afterStore?.({ reference: request.reference, txid: hash });
    await send(raw, hash);
    return { txid: hash };
  }

  /** The receipt of whichever attempt of the payment a block holds, if any (newest attempt first). */
  async function minedAttempt(payment: HotWalletPaymentRow): Promise<TransactionReceipt | undefined> {
    const hashes = (await repository.attemptsOf(payment.reference)).map((row) => row.hash);
    if (payment.mined_hash) hashes.unshift(payment.mined_hash);
    for (const hash of new Set(hashes)) {
      const receipt = await client.getTransactionReceipt({ hash: hash as Hex }).catch(() => undefined);
      if (receipt) return receipt;
    }
    return undefined;
  }

  /** Signs and stores a replacement of the payment's latest attempt at the same nonce with higher fees, then sends it. */
  async function replace(payment: HotWalletPaymentRow): Promise<HotWalletPaymentRow> {
    const market = await marketFees();
    const maxPriorityFeePerGas = maxOf(raised(BigInt(payment.max_priority_fee_per_gas)), market.maxPriorityFeePerGas);
    const maxFeePerGas = maxOf(maxOf(raised(BigInt(payment.max_fee_per_gas)), market.maxFeePerGas), maxPriorityFeePerGas);
    const gas = BigInt(payment.gas);
    const parsed = parseTransaction(payment.raw as Hex);
    const { raw, hash } = await signed({
      chainId: config.chainId,
      nonce: Number(payment.nonce),
      to: getAddress(parsed.to as string),
      value: parsed.value ?? 0n,
      data: parsed.data ?? '0x',
      gas,
      maxFeePerGas,
      maxPriorityFeePerGas,
    });
    const at = now();
    const attempt = payment.attempt + 1;
    const stored = await repository.insertAttempt({ hash, reference: payment.reference, attempt, raw, gas, maxFeePerGas, maxPriorityFeePerGas, createdAt: at });
    // Another process stored this attempt number first: its bytes are the ones to send (next round), never these.
    if (!stored) return payment;
    log?.info(
      { network, reference: payment.reference, nonce: payment.nonce, from: payment.hash, to: hash, maxFeePerGas: maxFeePerGas.toString() },
      'hot wallet: stuck transaction replaced at the same nonce with higher fees',
    );
    await send(raw, hash);
    return {
      ...payment,
      attempt,
      hash,
      raw,
      max_fee_per_gas: maxFeePerGas.toString(),
      max_priority_fee_per_gas: maxPriorityFeePerGas.toString(),
      attempt_created_at: at,
    };
  }

  /** One open payment's round (see HotWallet.tend); answers it when its current transaction changed or it went wrong. */
  async function tendOne(payment: HotWalletPaymentRow, head: bigint, minedCount: bigint): Promise<HotWalletTended | undefined> {
    const nonce = BigInt(payment.nonce);
    let current = payment.hash;
    if (nonce < minedCount) {
      // A block holds a transaction at this nonce: one of this payment's attempts, or one sent from elsewhere.
      const receipt = await minedAttempt(payment);
      if (!receipt) {
        log?.error(
          { network, reference: payment.reference, nonce: payment.nonce },
          "hot wallet: another transaction from this wallet was mined at this payment's nonce: it will never be paid by it",
        );
        return { reference: payment.reference, txid: payment.hash, problem: 'nonce-taken' };
      }
      current = receipt.transactionHash;
      const reverted = receipt.status !== 'success';
      if (head - receipt.blockNumber + 1n >= BigInt(config.confirmations)) {
        const settled = await repository.settle(payment.reference, current, receipt.blockNumber, reverted ? 'reverted' : 'paid', now());
        if (settled && reverted) {
          log?.error({ network, reference: payment.reference, txid: current }, "hot wallet: a withdrawal's transaction was mined and reverted: nothing was paid");
        }
      } else {
        await repository.setMined(payment.reference, current, receipt.blockNumber);
      }
      if (reverted) {
        await repository.setReported(payment.reference, current);
        return { reference: payment.reference, txid: current, problem: 'reverted' };
      }
    } else {
      // Unmined (again, if a re-organisation took its block away).
      if (payment.mined_hash !== null) await repository.setMined(payment.reference, null, null);
      try {
        const known = await knows(payment.hash);
        const stuck = now().getTime() - payment.attempt_created_at.getTime() >= config.replaceAfterSeconds * 1000;
        // Only the wallet's next transaction holds the others back; one the node refused is sent again, never raised further.
        if (known && stuck && nonce === minedCount) current = (await replace(payment)).hash;
        else if (!known) await send(payment.raw, payment.hash);
      } catch (error) {
        log?.warn({ network, reference: payment.reference, txid: payment.hash, err: error }, 'hot wallet: sending again failed, tried again next round');
      }
    }
    if (current === payment.reported_hash) return undefined;
    await repository.setReported(payment.reference, current);
    return { reference: payment.reference, txid: current };
  }

  async function tend(): Promise<HotWalletTended[]> {
    const answers: HotWalletTended[] = [];
    const open = await repository.openPayments(network, address);
    if (open.length > 0) {
      // cacheTime 0: viem otherwise answers a block number up to its polling interval old.
      const head = await client.getBlockNumber({ cacheTime: 0 });
      const minedCount = BigInt(await client.getTransactionCount({ address, blockNumber: head }));
      for (const payment of open) {
        // One payment the node cannot answer about now does not keep the others' answers from the caller.
        try {
          const answer = await tendOne(payment, head, minedCount);
          if (answer) answers.push(answer);
        } catch (error) {
          log?.warn({ network, reference: payment.reference, err: error }, 'hot wallet: a payment could not be tended, tried again next round');
        }
      }
    }
    // Settled as reverted: answered on every round (the caller's record of it is idempotent), never forgotten.
    const answered = new Set(answers.map((answer) => answer.reference));
    for (const row of await repository.revertedPayments(network, address)) {
      if (!answered.has(row.reference)) answers.push({ reference: row.reference, txid: row.mined_hash, problem: 'reverted' });
    }
    return answers;
  }

  async function confirmations(txids: readonly string[]): Promise<Map<string, number>> {
    const answer = new Map<string, number>();
    if (txids.length === 0) return answer;
    const siblings = await repository.siblingsOf(txids);
    const head = await client.getBlockNumber({ cacheTime: 0 });
    const receipts = new Map<string, Promise<TransactionReceipt | undefined>>();
    const receiptOf = (hash: string) => {
      let receipt = receipts.get(hash);
      if (!receipt) {
        receipt = client.getTransactionReceipt({ hash: hash as Hex }).catch(() => undefined);
        receipts.set(hash, receipt);
      }
      return receipt;
    };
    for (const txid of txids) {
      for (const hash of siblings.get(txid) ?? [txid]) {
        const receipt = await receiptOf(hash);
        if (!receipt) continue;
        // Mined and reverted: it paid nothing, so it has no confirmations (tend reports it).
        if (receipt.status === 'success') answer.set(txid, Number(head - receipt.blockNumber + 1n));
        break;
      }
    }
    return answer;
  }

  // Recorded at once, not at its first payment: chain:reconcile counts what the hot wallet holds from the start
  // (a sweep may fill it before any withdrawal).
  if (deps.chainVerified) {
    await client.getTransactionCount({ address, blockTag: 'pending' }).then(
      (count) => repository.ensureWallet(network, address, BigInt(count)),
      (error: unknown) => log?.warn({ network, err: error }, 'hot wallet not recorded at start: the node did not answer'),
    );
  }

  return { address, pay, tend, confirmations, close: async () => {} };
}
