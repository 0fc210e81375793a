import { formatUnits, getAddress, parseAbiItem, type Hash, type PublicClient } from 'viem';
import type { ChainProgress, IncomingPage, IncomingTransfer } from '../adapter.ts';
import { NATIVE_DECIMALS, type EvmNetworkConfig } from './config.ts';

/**
 * Reading an EVM chain by block range (docs/chains.md "Incoming"): native transfers from the blocks' own
 * transactions, token transfers from the tokens' `Transfer` logs. The cursor is the last block read and the
 * hashes of the blocks below it, newest first, so a re-organisation under the cursor is noticed (a stored
 * hash the node no longer has) and the last block both chains share is found without a table of our own.
 */
export interface EvmCursor {
  /** The last block read. */
  height: number;
  /** Hashes of `height`, `height - 1`, … (at most CURSOR_HASHES). Empty before the first block is read. */
  hashes: Hash[];
}

/** The longest re-organisation the cursor can walk back over; a deeper one stops the network for an operator. */
export const CURSOR_HASHES = 128;

export const TRANSFER_EVENT = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

/** A re-organisation deeper than the cursor remembers: the watcher cannot tell which deposits survived. */
export class ReorganisationTooDeep extends Error {
  override name = 'ReorganisationTooDeep';
}

/** The chain moved while a page was read (a block's parent or a log's block is not the block read): read it again next round. */
export class ChainMovedWhileReading extends Error {
  override name = 'ChainMovedWhileReading';
}

export const encodeCursor = (cursor: EvmCursor) => JSON.stringify({ height: cursor.height, hashes: cursor.hashes });

export function decodeCursor(text: string): EvmCursor {
  const parsed = JSON.parse(text) as { height?: unknown; hashes?: unknown };
  if (typeof parsed.height !== 'number' || !Number.isSafeInteger(parsed.height) || !Array.isArray(parsed.hashes)) {
    throw new Error(`not an EVM chain cursor: ${text.slice(0, 80)}`);
  }
  return { height: parsed.height, hashes: parsed.hashes.filter((hash): hash is Hash => typeof hash === 'string') };
}

/** The block's hash at `height`, or undefined when the node has no block there (its chain is shorter now). */
async function hashAt(client: PublicClient, height: number): Promise<Hash | undefined> {
  if (height < 0) return undefined;
  const block = await client.getBlock({ blockNumber: BigInt(height) }).catch(() => undefined);
  return block?.hash ?? undefined;
}

/**
 * Where the node's chain and the cursor part: undefined when the cursor's block is still the node's, else the
 * cursor at the last block both share (its `rewound` height).
 */
async function commonAncestor(client: PublicClient, cursor: EvmCursor): Promise<EvmCursor | undefined> {
  if (cursor.hashes.length === 0) return undefined;
  if ((await hashAt(client, cursor.height)) === cursor.hashes[0]) return undefined;
  for (let depth = 1; depth < cursor.hashes.length; depth += 1) {
    if ((await hashAt(client, cursor.height - depth)) === cursor.hashes[depth]) {
      return { height: cursor.height - depth, hashes: cursor.hashes.slice(depth) };
    }
  }
  throw new ReorganisationTooDeep(
    `the chain no longer holds any of the ${cursor.hashes.length} blocks below height ${cursor.height} the watcher read: ` +
      'a re-organisation deeper than it can follow. Check the node; see docs/chains.md "Re-organisations".',
  );
}

/** The stored cursor, or before anything was read the block before EVM_<NETWORK>_START_BLOCK (unset: the node's head). */
const cursorAt = (config: EvmNetworkConfig, text: string | null, head: number): EvmCursor =>
  text === null ? { height: Number(config.startBlock ?? BigInt(head)) - 1, hashes: [] } : decodeCursor(text);

/**
 * Where the watcher stands (ChainAdapter.progress), with one call to the node: the last block the cursor names,
 * the node's newest, and the blocks it holds above the cursor (before anything was read, above the block the
 * watcher starts after).
 */
export async function progressOf(client: PublicClient, config: EvmNetworkConfig, text: string | null): Promise<ChainProgress> {
  const head = Number(await client.getBlockNumber());
  const cursor = cursorAt(config, text, head);
  return { lastBlock: text === null ? null : cursor.height, head, lag: Math.max(0, head - cursor.height) };
}

/** One page: from the block after the cursor, at most `config.blocksPerPage` blocks, never past the node's head. */
export async function readIncoming(
  client: PublicClient,
  config: EvmNetworkConfig,
  text: string | null,
  /**
   * The platform's own addresses (hot wallet, cold addresses, gas station), lower case: what they send is never
   * a deposit. The sweep's gas top-up pays a deposit address from the gas station (docs/chains.md "Sweeping").
   */
  platform: ReadonlySet<string> = new Set(),
): Promise<IncomingPage> {
  const head = Number(await client.getBlockNumber());
  const cursor = cursorAt(config, text, head);

  const ancestor = await commonAncestor(client, cursor);
  if (ancestor) return { transfers: [], cursor: encodeCursor(ancestor), rewound: { height: ancestor.height } };

  const from = cursor.height + 1;
  const to = Math.min(head, from + config.blocksPerPage - 1);
  if (from > to) return { transfers: [], cursor: text };

  const heights = Array.from({ length: to - from + 1 }, (_, index) => from + index);
  const blocks = await Promise.all(heights.map((height) => client.getBlock({ blockNumber: BigInt(height), includeTransactions: true })));
  // The page must be one chain, joined to what was read before: otherwise the chain moved under the reads.
  blocks.forEach((block, index) => {
    const parent = index === 0 ? cursor.hashes[0] : blocks[index - 1]?.hash;
    if (parent !== undefined && block.parentHash !== parent) throw new ChainMovedWhileReading(`block ${block.number} does not follow the block read before it`);
  });
  const hashOf = new Map(blocks.map((block) => [Number(block.number), block.hash]));

  const transfers: IncomingTransfer[] = [];
  for (const block of blocks) {
    for (const transaction of block.transactions) {
      // A transfer to a deposit address (an account without code) cannot fail, so the block's list is enough
      // for them; value a contract forwards inside a transaction (an internal transfer) is not read here.
      if (typeof transaction === 'string' || transaction.to === null || transaction.value === 0n) continue;
      if (platform.has(transaction.from.toLowerCase())) continue;
      transfers.push({
        txid: transaction.hash,
        vout: 0,
        asset: config.native,
        address: getAddress(transaction.to),
        amount: formatUnits(transaction.value, NATIVE_DECIMALS),
        block: Number(block.number),
      });
    }
  }

  if (config.tokens.length > 0) {
    const logs = await client.getLogs({
      address: config.tokens.map((token) => token.contract),
      event: TRANSFER_EVENT,
      fromBlock: BigInt(from),
      toBlock: BigInt(to),
    });
    const tokenOf = new Map(config.tokens.map((token) => [token.contract.toLowerCase(), token]));
    for (const log of logs) {
      const token = tokenOf.get(log.address.toLowerCase());
      if (!token || log.args.to === undefined || log.args.value === undefined || log.transactionHash === null || log.logIndex === null) continue;
      if (log.blockNumber === null || hashOf.get(Number(log.blockNumber)) !== log.blockHash) {
        throw new ChainMovedWhileReading(`a ${token.ticker} transfer log is in block ${log.blockHash ?? '?'}, not in the block read at its height`);
      }
      if (log.args.value === 0n || (log.args.from !== undefined && platform.has(log.args.from.toLowerCase()))) continue;
      transfers.push({
        txid: log.transactionHash,
        // Output 0 is the transaction's own value; a token transfer is its log's index, shifted past it.
        vout: log.logIndex + 1,
        asset: token.ticker,
        address: getAddress(log.args.to),
        amount: formatUnits(log.args.value, token.decimals),
        block: Number(log.blockNumber),
      });
    }
  }

  const read = blocks.map((block) => block.hash as Hash).reverse();
  return { transfers, cursor: encodeCursor({ height: to, hashes: [...read, ...cursor.hashes].slice(0, CURSOR_HASHES) }) };
}
