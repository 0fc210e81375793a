import { erc20Abi, formatUnits, getAddress, type Hash, type PublicClient } from 'viem';
import type { NetworkKey } from '../../../contracts/wallet.ts';
import type { Db } from '../infra/db/db.ts';
import { Money } from '../ledger/money.ts';
import { chainRepository, type ChainIncidentKind } from './chain.repository.ts';
import { NATIVE_DECIMALS, type EvmNetworkConfig } from './evm/config.ts';
import { evmClient, verifyChainId } from './evm/evm-chain.ts';
import { reconcileRepository } from './reconcile.repository.ts';

/**
 * `npm run chain:reconcile` (docs/chains.md "Reconciliation"): per coin carried on a
 * network a real node serves (EVM_NETWORKS), what the ledger owes traders against what the chains hold.
 *
 * The ledger knows a trader's balance per coin, not per network (USDT deposited on Ethereum may be withdrawn on
 * Tron), so the comparison is per coin, over every network the coin travels on:
 *   - a network read from its node: the balances of its deposit addresses, the hot wallet and the cold addresses,
 *     all read at one block;
 *   - a network on the simulated chain (or a coin a real network carries but EVM_<NETWORK>_TOKENS does not name):
 *     no chain to ask, so what the product recorded there: credited external deposits minus completed external
 *     withdrawals. The report says which figures are recorded rather than read.
 *
 * Exact: the ledger's NUMERIC sums are read as text, chain balances are bigint units written out whole by
 * formatUnits, and everything is added and compared as Money (60 digits). A coin kept with 8 places while the
 * chain counts 18 is compared to the last wei; nothing is rounded.
 *
 * Snapshot order: the database is read first (one REPEATABLE READ snapshot), then each node's head is taken and
 * every balance read at that block. A deposit credited in the snapshot was mined before the head the watcher
 * saw, so it is in the balances; a withdrawal completed in the snapshot left before it too. A withdrawal
 * broadcast but not yet settled in the snapshot is looked up: mined at or below the block, its coins are gone
 * while the ledger still holds them in `withdrawing`, and its amount is counted as "sent, not yet settled" (no
 * longer due: the watcher's next round moves it out of `withdrawing`).
 */

/** How one network's node answered. */
export interface NetworkRead {
  network: NetworkKey;
  chainId: number;
  /** The block every balance of this network was read at; undefined when the node could not be read. */
  block: bigint | undefined;
  /** The node answers another chain id than configured, or did not answer at all. */
  problem: { kind: 'wrong_chain' | 'unreachable'; message: string } | undefined;
  depositAddresses: number;
  /** The hot wallet's address, when one was given or configured (a signer's): otherwise it is not counted. */
  hotWalletAddress: `0x${string}` | undefined;
  coldAddresses: `0x${string}`[];
}

/** One coin on a network read from its node: balances at the network's block. */
export interface ChainHolding {
  source: 'chain';
  network: NetworkKey;
  depositAddresses: string;
  hot: string;
  cold: string;
  total: string;
  /** Withdrawals mined at or below the block whose ledger entries are still to come: their whole amounts. */
  settling: string;
  settlingCount: number;
}

/** One coin on a network without a node to ask: what the product recorded crossing it. */
export interface RecordedHolding {
  source: 'recorded';
  network: string;
  /** `simulated`: the network is on CHAIN_SOURCE; `not_configured`: its node is read, but not this coin. */
  why: 'simulated' | 'not_configured';
  arrived: string;
  sent: string;
  total: string;
}

export interface CoinReconciliation {
  ticker: string;
  /** The places the ledger keeps the coin with. */
  places: number;
  owed: { available: string; escrow: string; withdrawing: string; total: string };
  /** The platform's fee account: the operator's own, not owed; usually why `held` is above `due`. */
  fees: string;
  /** The amounts of withdrawals mined but not settled by the watcher yet: gone from the chain, still in `withdrawing`. */
  settling: string;
  /** owed − settling: what the chains must hold for the traders. */
  due: string;
  holdings: (ChainHolding | RecordedHolding)[];
  /** Undefined when a network of the coin could not be read. */
  held: string | undefined;
  /** held − due; undefined when a network of the coin could not be read. */
  difference: string | undefined;
  /** held < due, or a network of the coin unread. */
  short: boolean;
  unread: NetworkKey[];
}

export interface ReconcileReport {
  at: Date;
  networks: NetworkRead[];
  coins: CoinReconciliation[];
  incidents: { id: string; network: string; kind: ChainIncidentKind; subject: string; detail: string; created_at: Date }[];
  /** No coin short, every node the configured chain and answering. */
  ok: boolean;
}

export interface ReconcileDeps {
  db: Db;
  networks: readonly EvmNetworkConfig[];
  /**
   * Each network's hot wallet address. The hot wallet's own module (chain/evm/hot-wallet.ts) knows it from its key
   * file; a signer's address comes from its configuration when none is given here. A network without one counts
   * no hot wallet, which the report says.
   */
  hotWalletAddresses?: Partial<Record<NetworkKey, string>>;
  clientOf?: (config: EvmNetworkConfig) => PublicClient;
  now?: () => Date;
  /**
   * Every coin, also those no node is read for (their holdings are all recorded ones): the operator's overview
   * shows every network (operator/operator-overview.ts). Default: only the coins a node is read for.
   */
  everyCoin?: boolean;
}

/** Balances asked of a node at once (one JSON-RPC batch each): a large platform's addresses in bounded rounds. */
const BALANCES_PER_ROUND = 200;

/** Per asset of a network (its native coin and tokens), the units held by each kind of address. */
interface AssetUnits {
  depositAddresses: bigint;
  hot: bigint;
  cold: bigint;
}

export interface NetworkHoldings {
  block: bigint;
  /** By ticker: the native coin and every configured token. */
  units: Map<string, AssetUnits>;
  hotWalletAddress: `0x${string}` | undefined;
  coldAddresses: `0x${string}`[];
}

/**
 * What one network's addresses hold, every balance read at the node's head when called (exact units). An address
 * listed twice counts once, as the first of: deposit address, hot wallet, cold address.
 */
export async function readNetworkHoldings(
  client: PublicClient,
  config: EvmNetworkConfig,
  depositAddresses: readonly string[],
  options: { hotWalletAddress?: string } = {},
): Promise<NetworkHoldings> {
  const block = await client.getBlockNumber();
  const seen = new Set<string>();
  const take = (addresses: readonly string[]) =>
    addresses
      .map((address) => getAddress(address))
      .filter((address) => {
        const key = address.toLowerCase();
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
  const deposits = take(depositAddresses);
  const hotText = options.hotWalletAddress ?? (config.hotWallet?.kind === 'signer' ? config.hotWallet.address : undefined);
  const hotWalletAddress = hotText === undefined ? undefined : getAddress(hotText);
  const hot = hotWalletAddress === undefined ? [] : take([hotWalletAddress]);
  const cold = take(config.coldAddresses);

  const sumOf = async (addresses: readonly `0x${string}`[], read: (address: `0x${string}`) => Promise<bigint>) => {
    let total = 0n;
    for (let start = 0; start < addresses.length; start += BALANCES_PER_ROUND) {
      const balances = await Promise.all(addresses.slice(start, start + BALANCES_PER_ROUND).map(read));
      for (const balance of balances) total += balance;
    }
    return total;
  };
  const assets: { ticker: string; read: (address: `0x${string}`) => Promise<bigint> }[] = [
    { ticker: config.native, read: (address) => client.getBalance({ address, blockNumber: block }) },
    ...config.tokens.map((token) => ({
      ticker: token.ticker,
      read: (address: `0x${string}`) =>
        client.readContract({ address: token.contract, abi: erc20Abi, functionName: 'balanceOf', args: [address], blockNumber: block }),
    })),
  ];
  const units = new Map<string, AssetUnits>();
  for (const asset of assets) {
    units.set(asset.ticker, {
      depositAddresses: await sumOf(deposits, asset.read),
      hot: await sumOf(hot, asset.read),
      cold: await sumOf(cold, asset.read),
    });
  }
  return { block, units, hotWalletAddress, coldAddresses: config.coldAddresses.map((address) => getAddress(address)) };
}

/** The transactions of `txids` mined successfully at or below `block`. */
async function minedBy(client: PublicClient, txids: readonly string[], block: bigint): Promise<Set<string>> {
  const receipts = await Promise.all(
    txids.map((txid) => client.getTransactionReceipt({ hash: txid as Hash }).then((receipt) => receipt, () => undefined)),
  );
  const mined = new Set<string>();
  txids.forEach((txid, index) => {
    const receipt = receipts[index];
    if (receipt && receipt.status === 'success' && receipt.blockNumber <= block) mined.add(txid);
  });
  return mined;
}

const decimalsOf = (config: EvmNetworkConfig, ticker: string) =>
  ticker === config.native ? NATIVE_DECIMALS : config.tokens.find((token) => token.ticker === ticker)?.decimals;

export async function reconcileChains(deps: ReconcileDeps): Promise<ReconcileReport> {
  const { db, networks, hotWalletAddresses = {}, clientOf = evmClient, now = () => new Date() } = deps;
  const at = now();

  // 1. The database, in one snapshot (see above for why it comes before the chains).
  const snapshot = await db.transaction(async (tx) => {
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    const repository = reconcileRepository(tx);
    const owed = await repository.owedPerCoin();
    const coinNetworks = await repository.coinNetworks();
    const recorded = await repository.recordedPerNetwork();
    const perNetwork = new Map<
      NetworkKey,
      { addresses: string[]; broadcast: Awaited<ReturnType<typeof repository.broadcastWithdrawalsOn>>; hot: string | undefined }
    >();
    for (const config of networks) {
      perNetwork.set(config.network, {
        addresses: (await repository.depositAddressesOn(config.network)).map((row) => row.address),
        broadcast: await repository.broadcastWithdrawalsOn(config.network),
        hot: await repository.hotWalletOn(config.network),
      });
    }
    const incidents = await chainRepository(tx).openIncidents();
    return { owed, coinNetworks, recorded, perNetwork, incidents };
  });

  // 2. Each node, at its head.
  const reads: NetworkRead[] = [];
  const holdings = new Map<NetworkKey, NetworkHoldings & { settlingByCoin: Map<number, { amount: Money; count: number }> }>();
  for (const config of networks) {
    const own = snapshot.perNetwork.get(config.network) ?? { addresses: [], broadcast: [], hot: undefined };
    const read: NetworkRead = {
      network: config.network,
      chainId: config.chainId,
      block: undefined,
      problem: undefined,
      depositAddresses: own.addresses.length,
      hotWalletAddress: undefined,
      coldAddresses: config.coldAddresses,
    };
    reads.push(read);
    const client = clientOf(config);
    try {
      await verifyChainId(client, config);
      // Given on the command line, else the wallet the server's hot wallet recorded once it paid (a key file's
      // address is known only to the process that read the key); readNetworkHoldings adds a signer's.
      const hotWalletAddress = hotWalletAddresses[config.network] ?? own.hot;
      const held = await readNetworkHoldings(client, config, own.addresses, hotWalletAddress === undefined ? {} : { hotWalletAddress });
      const mined = await minedBy(client, [...new Set(own.broadcast.map((row) => row.txid))], held.block);
      const settlingByCoin = new Map<number, { amount: Money; count: number }>();
      for (const row of own.broadcast) {
        if (!mined.has(row.txid)) continue;
        const entry = settlingByCoin.get(row.coin_id) ?? { amount: new Money(0), count: 0 };
        // Once mined, the whole amount is no longer the trader's: the recipient received amount − fee, and the fee
        // is the platform's (what it charged for the gas its hot wallet paid). The watcher's `:sent` entry moves it.
        settlingByCoin.set(row.coin_id, { amount: entry.amount.plus(row.amount_crypto), count: entry.count + 1 });
      }
      holdings.set(config.network, { ...held, settlingByCoin });
      read.block = held.block;
      read.hotWalletAddress = held.hotWalletAddress;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      read.problem = { kind: error instanceof Error && error.name === 'WrongChain' ? 'wrong_chain' : 'unreachable', message };
    }
  }

  // 3. Per coin carried on a network read from its node.
  const configOf = new Map(networks.map((config) => [config.network as string, config]));
  const readsCoin = (network: string, ticker: string) => {
    const config = configOf.get(network);
    return config !== undefined && decimalsOf(config, ticker) !== undefined;
  };
  const coins: CoinReconciliation[] = [];
  for (const coin of snapshot.owed) {
    const coinNetworks = snapshot.coinNetworks.filter((row) => row.coin_id === coin.coin_id).map((row) => row.network);
    if (!deps.everyCoin && !coinNetworks.some((network) => readsCoin(network, coin.ticker))) continue;
    const owedTotal = new Money(coin.available).plus(coin.escrow).plus(coin.withdrawing);
    let settling = new Money(0);
    let held = new Money(0);
    const unread: NetworkKey[] = [];
    const coinHoldings: (ChainHolding | RecordedHolding)[] = [];
    for (const network of coinNetworks) {
      const config = configOf.get(network);
      if (config && readsCoin(network, coin.ticker)) {
        const read = holdings.get(config.network);
        if (!read) {
          unread.push(config.network);
          continue;
        }
        const decimals = decimalsOf(config, coin.ticker) ?? NATIVE_DECIMALS;
        const units = read.units.get(coin.ticker) ?? { depositAddresses: 0n, hot: 0n, cold: 0n };
        const total = units.depositAddresses + units.hot + units.cold;
        const sent = read.settlingByCoin.get(coin.coin_id) ?? { amount: new Money(0), count: 0 };
        settling = settling.plus(sent.amount);
        held = held.plus(formatUnits(total, decimals));
        coinHoldings.push({
          source: 'chain',
          network: config.network,
          depositAddresses: formatUnits(units.depositAddresses, decimals),
          hot: formatUnits(units.hot, decimals),
          cold: formatUnits(units.cold, decimals),
          total: formatUnits(total, decimals),
          settling: sent.amount.toFixed(),
          settlingCount: sent.count,
        });
      } else {
        const row = snapshot.recorded.find((candidate) => candidate.coin_id === coin.coin_id && candidate.network === network);
        const arrived = new Money(row?.arrived ?? 0);
        const sent = new Money(row?.sent ?? 0);
        const total = arrived.minus(sent);
        held = held.plus(total);
        coinHoldings.push({
          source: 'recorded',
          network,
          why: config ? 'not_configured' : 'simulated',
          arrived: arrived.toFixed(),
          sent: sent.toFixed(),
          total: total.toFixed(),
        });
      }
    }
    const due = owedTotal.minus(settling);
    const difference = held.minus(due);
    coins.push({
      ticker: coin.ticker,
      places: coin.decimal_places,
      owed: {
        available: new Money(coin.available).toFixed(),
        escrow: new Money(coin.escrow).toFixed(),
        withdrawing: new Money(coin.withdrawing).toFixed(),
        total: owedTotal.toFixed(),
      },
      fees: new Money(coin.fees).toFixed(),
      settling: settling.toFixed(),
      due: due.toFixed(),
      holdings: coinHoldings,
      held: unread.length > 0 ? undefined : held.toFixed(),
      difference: unread.length > 0 ? undefined : difference.toFixed(),
      short: unread.length > 0 || difference.isNegative(),
      unread,
    });
  }

  return {
    at,
    networks: reads,
    coins,
    incidents: snapshot.incidents,
    ok: reads.every((read) => read.problem === undefined) && coins.every((coin) => !coin.short),
  };
}

const signed = (value: string) => (value.startsWith('-') || value === '0' ? value : `+${value}`);

/** The report as an operator reads it in a terminal (docs/chains.md "Reconciliation" explains each line). */
export function formatReconcileReport(report: ReconcileReport): string {
  const lines = [`chain:reconcile at ${report.at.toISOString()}`];
  if (report.networks.length === 0) lines.push('no EVM network is configured (EVM_NETWORKS): nothing to reconcile');
  for (const read of report.networks) {
    if (read.problem) {
      const what = read.problem.kind === 'wrong_chain' ? 'WRONG CHAIN' : 'NOT READ';
      lines.push(`${read.network}: ${what}: ${read.problem.message}`);
      continue;
    }
    lines.push(
      `${read.network}: chain ${read.chainId}, balances at block ${read.block ?? '?'}; ${read.depositAddresses} deposit address(es); ` +
        `hot wallet ${read.hotWalletAddress ?? 'not counted (no address given: --hot)'}; ` +
        `cold ${read.coldAddresses.length > 0 ? read.coldAddresses.join(', ') : 'none'}`,
    );
  }
  for (const coin of report.coins) {
    lines.push('');
    lines.push(`${coin.ticker} (the ledger keeps ${coin.places} places)`);
    lines.push(
      `  owed to traders          ${coin.owed.total}  (available ${coin.owed.available}, escrow ${coin.owed.escrow}, withdrawing ${coin.owed.withdrawing})`,
    );
    if (coin.settling !== '0') lines.push(`  sent, not yet settled   -${coin.settling}  (withdrawals mined, still in withdrawing until the watcher's next round)`);
    lines.push(`  due on the chains        ${coin.due}`);
    for (const holding of coin.holdings) {
      if (holding.source === 'chain') {
        lines.push(
          `  ${holding.network.padEnd(10)} held on chain ${holding.total} = deposit addresses ${holding.depositAddresses} + hot ${holding.hot} + cold ${holding.cold}` +
            (holding.settlingCount > 0 ? `  (${holding.settlingCount} withdrawal(s) sent, not yet settled: ${holding.settling})` : ''),
        );
      } else {
        const why = holding.why === 'simulated' ? 'simulated chain' : `${coin.ticker} is not in EVM_${holding.network.toUpperCase()}_TOKENS`;
        lines.push(
          `  ${holding.network.padEnd(10)} recorded      ${holding.total} = deposits credited ${holding.arrived} − withdrawals completed ${holding.sent}  (${why}: what the product recorded, no balance read)`,
        );
      }
    }
    for (const network of coin.unread) lines.push(`  ${network.padEnd(10)} NOT READ (see above): ${coin.ticker} cannot be reconciled`);
    if (coin.held !== undefined && coin.difference !== undefined) {
      lines.push(`  held in all              ${coin.held}`);
      lines.push(`  difference               ${signed(coin.difference)}  ${coin.short ? 'SHORT' : 'ok'}`);
    }
    lines.push(`  platform fees (not owed) ${coin.fees}`);
  }
  lines.push('');
  if (report.incidents.length === 0) lines.push('open chain incidents: none');
  else {
    lines.push(`open chain incidents: ${report.incidents.length}`);
    for (const incident of report.incidents) {
      lines.push(`  #${incident.id} ${incident.network} ${incident.kind} ${incident.subject} (${incident.created_at.toISOString()}): ${incident.detail}`);
    }
  }
  const problems = [
    ...report.networks.filter((read) => read.problem).map((read) => `${read.network} ${read.problem?.kind === 'wrong_chain' ? 'is the wrong chain' : 'not read'}`),
    ...report.coins.filter((coin) => coin.short).map((coin) => (coin.difference !== undefined ? `${coin.ticker} short by ${new Money(coin.difference).neg().toFixed()}` : `${coin.ticker} not reconciled`)),
  ];
  lines.push(report.ok ? 'ok' : `PROBLEMS: ${problems.join('; ')}`);
  return lines.join('\n');
}
