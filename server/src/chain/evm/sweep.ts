import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync, validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  encodeFunctionData,
  erc20Abi,
  formatUnits,
  getAddress,
  http,
  parseAbi,
  toHex,
  type Hash,
  type LocalAccount,
  type PublicClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { Money } from '../../ledger/money.ts';
import { chainNetworkOf } from '../../wallets/networks.ts';
import { NATIVE_DECIMALS, type EvmNetworkConfig, type EvmToken } from './config.ts';
import { currentFees, verifyChainId } from './evm-chain.ts';

/**
 * `npm run wallet:sweep` (docs/chains.md "Sweeping"): moves what the deposit addresses of one EVM
 * network hold to the operator's hot wallet or a cold address. Run where the mnemonic is, never by the server: the
 * server holds only the extended public key (WALLET_XPUB_<NETWORK>) and cannot spend from a deposit address.
 *
 * Per deposit address, tokens first, then the native coin:
 *   - a token: `transfer(target, balance)` sent by the address itself, which needs the native coin for gas. The
 *     operator's gas station (a small key of its own, not the server's hot wallet, so the running server and the
 *     sweep never compete for a nonce) first sends it exactly the gas the transfer is estimated to need at this
 *     run's fee cap, less what it holds already. The transfer's return value is not decoded (Ethereum's USDT
 *     returns nothing): the receipt's status and the balance afterwards say whether it moved.
 *   - the native coin: the balance less the transfer's gas at the fee cap (21,000 gas to an ordinary address),
 *     when that is worth more than the gas itself or than `--min`. The block's base fee is usually below the cap,
 *     so a little is left behind (gas × (cap − price paid)); the next sweep takes it once it is worth taking.
 * Every transaction is EIP-1559, signed with the address's own key derived from the mnemonic, and waited for.
 * Running it again after a crash sweeps what is still there; an address with a transaction still pending is left
 * for the next run.
 */

/** Only what is called is declared: Ethereum's USDT declares no return value for `transfer`, so none is decoded. */
const TRANSFER_ABI = parseAbi(['function transfer(address to, uint256 value)']);

/** A transfer of the native coin to an ordinary address (not a contract): the protocol's fixed cost. */
export const NATIVE_TRANSFER_GAS = 21_000n;

/** How long a transaction may take to be mined before the run stops and leaves it for the next one. */
const RECEIPT_TIMEOUT_MS = 15 * 60_000;

export class SweepRefused extends Error {
  override name = 'SweepRefused';
}

export interface SweepStep {
  kind: 'gas_top_up' | 'token' | 'native';
  /** The deposit address's BIP-32 child index (…/0/index). */
  index: number;
  address: `0x${string}`;
  ticker: string;
  /** What moved (the top-up: the native coin sent to the address), exact decimal. */
  amount: string;
  /** Gas the transaction was given (or, in a dry run, estimated to need). */
  gasLimit: bigint;
  maxFeePerGas: bigint;
  /** Unset in a dry run. */
  txid?: Hash;
  gasUsed?: bigint;
  /** gasUsed × the price paid, in wei. */
  gasCost?: bigint;
}

export interface SweepSkip {
  index: number;
  address: `0x${string}`;
  ticker: string;
  amount: string;
  reason: string;
}

export interface SweepReport {
  network: string;
  to: `0x${string}`;
  dryRun: boolean;
  steps: SweepStep[];
  /** Balances left where they are, and why (below --min, not worth the gas, a transaction pending, no gas key). */
  skipped: SweepSkip[];
  /** What could not be done: a transaction that reverted or was not mined in time, a token that did not move. */
  failures: SweepSkip[];
}

export interface SweepDeps {
  config: EvmNetworkConfig;
  /** The deposit addresses of the network and their child indexes (deposit_addresses). */
  depositAddresses: readonly { derivation_index: number; address: string }[];
  /** The BIP-39 mnemonic whose account key is WALLET_XPUB_<NETWORK>. */
  mnemonic: string;
  /** Where everything goes: a cold address (EVM_<NETWORK>_COLD_ADDRESSES) or the hot wallet. */
  to: string;
  /** The hot wallet's address, when it is the target (a signer's is known from the configuration already). */
  hotWalletAddress?: string;
  /** Sweep to an address that is neither a configured cold address nor the hot wallet (chain:reconcile will not count it). */
  allowUnlistedTarget?: boolean;
  /** The gas station's key (the operator's, never the server's hot wallet): pays the gas of token sweeps. */
  gasStation?: LocalAccount;
  /** Per ticker: leave a balance below this where it is (decimal). */
  minimum?: Readonly<Record<string, string>>;
  dryRun?: boolean;
  /** A line per step as it happens, for the operator's terminal. */
  log?: (line: string) => void;
  client?: PublicClient;
  /** How often a receipt is looked for (a block is 12 s on Ethereum; a test node mines at once). */
  pollingIntervalMs?: number;
}

/**
 * The private key of every listed deposit address, derived from the mnemonic at the network's account path
 * (server/src/wallets/networks.ts: m/44'/60'/0' on Ethereum, addresses at …/0/index). Refused unless each derives
 * exactly the address the database handed out: another mnemonic must never be used to sign.
 */
export function depositAccounts(
  mnemonic: string,
  config: Pick<EvmNetworkConfig, 'network'>,
  addresses: readonly { derivation_index: number; address: string }[],
): Map<`0x${string}`, { index: number; account: LocalAccount }> {
  const words = mnemonic.trim().split(/\s+/).join(' ');
  if (!validateMnemonic(words, wordlist)) throw new SweepRefused('the mnemonic is not a BIP-39 mnemonic (English word list)');
  const external = HDKey.fromMasterSeed(mnemonicToSeedSync(words)).derive(accountPathOf(config.network)).deriveChild(0);
  const accounts = new Map<`0x${string}`, { index: number; account: LocalAccount }>();
  for (const row of addresses) {
    const key = external.deriveChild(row.derivation_index).privateKey;
    if (!key) throw new SweepRefused(`no private key at index ${row.derivation_index}`);
    const account = privateKeyToAccount(toHex(key));
    if (account.address.toLowerCase() !== row.address.toLowerCase()) {
      throw new SweepRefused(
        `the mnemonic derives ${account.address} at index ${row.derivation_index}, but the database's deposit address there is ${row.address}: ` +
          'not the mnemonic of WALLET_XPUB_' + config.network.toUpperCase() + '. Nothing was sent.',
      );
    }
    accounts.set(getAddress(row.address), { index: row.derivation_index, account });
  }
  return accounts;
}

/** The account every deposit address of the network is a child of (Ethereum's for every EVM network: wallets/networks.ts). */
function accountPathOf(network: EvmNetworkConfig['network']): string {
  const chain = chainNetworkOf(network);
  if (!chain) throw new SweepRefused(`${network} is neither a built-in network nor in EVM_NETWORKS`);
  return chain.accountPath;
}

/**
 * Whether the mnemonic's account key on the network is the one the server derives deposit addresses from
 * (WALLET_XPUB_<NETWORK>, parsed by wallets/keys.ts `parseAccountKey`): same public key and chain code.
 */
export function isAccountKeyOf(mnemonic: string, network: EvmNetworkConfig['network'], accountKey: HDKey): boolean {
  const words = mnemonic.trim().split(/\s+/).join(' ');
  const derived = HDKey.fromMasterSeed(mnemonicToSeedSync(words)).derive(accountPathOf(network));
  const same = (a: Uint8Array | null, b: Uint8Array | null) => a !== null && b !== null && toHex(a) === toHex(b);
  return same(derived.publicKey, accountKey.publicKey) && same(derived.chainCode, accountKey.chainCode);
}

export async function sweepDepositAddresses(deps: SweepDeps): Promise<SweepReport> {
  const { config, mnemonic, gasStation, minimum = {}, dryRun = false, log = () => {}, pollingIntervalMs = 1_000 } = deps;
  const client =
    deps.client ?? (createPublicClient({ cacheTime: 0, pollingInterval: pollingIntervalMs, transport: http(config.rpcUrl, { batch: true }) }) as PublicClient);
  const to = getAddress(deps.to);
  const report: SweepReport = { network: config.network, to, dryRun, steps: [], skipped: [], failures: [] };

  const variable = (setting: string) => `EVM_${config.network.toUpperCase()}_${setting}`;
  if (deps.depositAddresses.some((row) => row.address.toLowerCase() === to.toLowerCase())) {
    // The watcher would take it for that trader's deposit and credit it a second time.
    throw new SweepRefused(`${to} is a trader's deposit address: sweep to the hot wallet or a cold address`);
  }
  const listed = [...config.coldAddresses, ...(config.hotWallet?.kind === 'signer' ? [config.hotWallet.address] : []), ...(deps.hotWalletAddress ? [deps.hotWalletAddress] : [])];
  if (!deps.allowUnlistedTarget && !listed.some((address) => address.toLowerCase() === to.toLowerCase())) {
    throw new SweepRefused(
      `${to} is neither in ${variable('COLD_ADDRESSES')} nor the hot wallet: chain:reconcile would not count what is swept there. ` +
        'Add it to the cold addresses first, or confirm the address with --unlisted-target.',
    );
  }
  if (gasStation && config.gasStation?.toLowerCase() !== gasStation.address.toLowerCase()) {
    // Without it the server's watcher takes every top-up for a trader's deposit and credits it.
    throw new SweepRefused(
      `the gas key is ${gasStation.address}, but ${variable('GAS_STATION_ADDRESS')} is ${config.gasStation ?? 'not set'}: ` +
        `set ${variable('GAS_STATION_ADDRESS')}=${gasStation.address} on the server (and restart it) before sweeping tokens`,
    );
  }
  for (const [ticker, text] of Object.entries(minimum)) {
    if (ticker !== config.native && !config.tokens.some((token) => token.ticker === ticker)) {
      throw new SweepRefused(`--min ${ticker}: not a coin of ${config.network} (${[config.native, ...config.tokens.map((token) => token.ticker)].join(', ')})`);
    }
    if (!/^\d+(\.\d+)?$/.test(text)) throw new SweepRefused(`--min ${ticker}=${text}: not a decimal amount`);
  }
  await verifyChainId(client, config);
  const accounts = depositAccounts(mnemonic, config, deps.depositAddresses);

  const chain = defineChain({
    id: config.chainId,
    name: config.network,
    nativeCurrency: { name: config.native, symbol: config.native, decimals: NATIVE_DECIMALS },
    rpcUrls: { default: { http: [config.rpcUrl] } },
  });
  const walletOf = (account: LocalAccount) => createWalletClient({ account, chain, transport: http(config.rpcUrl) });
  const minimumUnits = (ticker: string, decimals: number) => {
    const text = minimum[ticker];
    if (text === undefined) return undefined;
    const units = new Money(text).times(new Money(10).pow(decimals));
    return BigInt(units.toDecimalPlaces(0, Money.ROUND_UP).toFixed());
  };
  const fees = async () => {
    const offered = await currentFees(client);
    if (!offered) throw new SweepRefused(`${config.network} has no EIP-1559 base fee: sweeping needs it`);
    return offered;
  };
  /**
   * The gas of a native transfer: 21,000 exactly to an account without code (the protocol's fixed cost; a node's
   * estimate may say a little more), a contract's estimate otherwise (a multisig's receive function runs code).
   */
  const nativeTransferGas = async (from: `0x${string}`, target: `0x${string}`) => {
    const code = await client.getCode({ address: target });
    return code === undefined || code === '0x' ? NATIVE_TRANSFER_GAS : client.estimateGas({ account: from, to: target, value: 1n });
  };
  /** Whether the address has a transaction sent and not yet mined: its nonce is taken until then. */
  const hasPending = async (address: `0x${string}`) =>
    (await client.getTransactionCount({ address, blockTag: 'pending' })) > (await client.getTransactionCount({ address, blockTag: 'latest' }));
  /** Sends and waits; answers the receipt, or records a failure and answers undefined. */
  const sendAndWait = async (
    from: LocalAccount,
    request: { to: `0x${string}`; value?: bigint; data?: `0x${string}`; gas: bigint; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint },
    step: Omit<SweepStep, 'txid' | 'gasUsed' | 'gasCost' | 'gasLimit' | 'maxFeePerGas'>,
  ) => {
    let txid: Hash;
    try {
      txid = await walletOf(from).sendTransaction({ ...request, type: 'eip1559' });
    } catch (error) {
      // The node refused it (funds, fees, a nonce taken meanwhile): nothing was sent; the other addresses go on.
      report.failures.push({ ...pick(step), reason: `not sent: ${(error as Error).message.split('\n')[0]}` });
      return undefined;
    }
    log(`${step.kind} ${step.amount} ${step.ticker} ${step.kind === 'gas_top_up' ? `to ${step.address}` : `from ${step.address} (index ${step.index})`}: ${txid}`);
    let receipt;
    try {
      receipt = await client.waitForTransactionReceipt({ hash: txid, pollingInterval: pollingIntervalMs, timeout: RECEIPT_TIMEOUT_MS });
    } catch (error) {
      report.failures.push({ ...pick(step), reason: `${txid} not mined yet (${(error as Error).message}): run the sweep again once it is` });
      return undefined;
    }
    const done: SweepStep = {
      ...step,
      gasLimit: request.gas,
      maxFeePerGas: request.maxFeePerGas,
      txid,
      gasUsed: receipt.gasUsed,
      gasCost: receipt.gasUsed * receipt.effectiveGasPrice,
    };
    report.steps.push(done);
    if (receipt.status !== 'success') {
      report.failures.push({ ...pick(step), reason: `${txid} reverted` });
      return undefined;
    }
    return receipt;
  };

  if (gasStation && !dryRun && (await hasPending(gasStation.address))) {
    throw new SweepRefused(`the gas station ${gasStation.address} has a transaction pending: run the sweep again once it is mined`);
  }

  for (const [address, { index, account }] of accounts) {
    const skip = (ticker: string, amount: string, reason: string) => report.skipped.push({ index, address, ticker, amount, reason });
    if (!dryRun && (await hasPending(address))) {
      skip('*', '', 'a transaction from this address is still pending: left for the next run');
      continue;
    }

    for (const token of config.tokens) {
      const units = await client.readContract({ address: token.contract, abi: erc20Abi, functionName: 'balanceOf', args: [address] });
      if (units === 0n) continue;
      const amount = formatUnits(units, token.decimals);
      const floor = minimumUnits(token.ticker, token.decimals);
      if (floor !== undefined && units < floor) {
        skip(token.ticker, amount, `below --min ${token.ticker}=${minimum[token.ticker]}`);
        continue;
      }
      await sweepToken({ address, index, account, token, units, amount });
    }

    // The native coin last: what a token's gas left behind goes with it.
    const balance = await client.getBalance({ address });
    if (balance === 0n) continue;
    const { maxFeePerGas, maxPriorityFeePerGas } = await fees();
    const gas = await nativeTransferGas(address, to);
    const value = balance - gas * maxFeePerGas;
    const amount = formatUnits(balance, NATIVE_DECIMALS);
    const floor = minimumUnits(config.native, NATIVE_DECIMALS) ?? gas * maxFeePerGas;
    if (value <= 0n || value < floor) {
      skip(
        config.native,
        amount,
        minimum[config.native] !== undefined
          ? `below --min ${config.native}=${minimum[config.native]} after its gas`
          : `worth less than the gas to move it (${formatUnits(gas * maxFeePerGas, NATIVE_DECIMALS)} at this fee cap)`,
      );
      continue;
    }
    const step = { kind: 'native' as const, index, address, ticker: config.native, amount: formatUnits(value, NATIVE_DECIMALS) };
    if (dryRun) {
      report.steps.push({ ...step, gasLimit: gas, maxFeePerGas });
      continue;
    }
    await sendAndWait(account, { to, value, gas, maxFeePerGas, maxPriorityFeePerGas }, step);
  }
  return report;

  async function sweepToken(source: { address: `0x${string}`; index: number; account: LocalAccount; token: EvmToken; units: bigint; amount: string }) {
    const { address, index, account, token, units, amount } = source;
    const data = encodeFunctionData({ abi: TRANSFER_ABI, functionName: 'transfer', args: [to, units] });
    const gas = await client.estimateGas({ account: address, to: token.contract, data });
    const { maxFeePerGas, maxPriorityFeePerGas } = await fees();
    const held = await client.getBalance({ address });
    const topUp = gas * maxFeePerGas > held ? gas * maxFeePerGas - held : 0n;
    const transfer = { kind: 'token' as const, index, address, ticker: token.ticker, amount };
    if (dryRun) {
      if (topUp > 0n) {
        report.steps.push({ kind: 'gas_top_up', index, address, ticker: config.native, amount: formatUnits(topUp, NATIVE_DECIMALS), gasLimit: NATIVE_TRANSFER_GAS, maxFeePerGas });
      }
      report.steps.push({ ...transfer, gasLimit: gas, maxFeePerGas });
      return;
    }
    if (topUp > 0n) {
      if (!gasStation) {
        report.skipped.push({ index, address, ticker: token.ticker, amount, reason: `needs ${formatUnits(topUp, NATIVE_DECIMALS)} ${config.native} of gas: give --gas-key-file` });
        return;
      }
      const stationGas = await nativeTransferGas(gasStation.address, address);
      const stationBalance = await client.getBalance({ address: gasStation.address });
      if (stationBalance < topUp + stationGas * maxFeePerGas) {
        report.failures.push({
          index,
          address,
          ticker: token.ticker,
          amount,
          reason: `the gas station ${gasStation.address} holds ${formatUnits(stationBalance, NATIVE_DECIMALS)} ${config.native}, short of the ${formatUnits(topUp + stationGas * maxFeePerGas, NATIVE_DECIMALS)} this top-up costs: fund it`,
        });
        return;
      }
      const funded = await sendAndWait(
        gasStation,
        { to: address, value: topUp, gas: stationGas, maxFeePerGas, maxPriorityFeePerGas },
        { kind: 'gas_top_up', index, address, ticker: config.native, amount: formatUnits(topUp, NATIVE_DECIMALS) },
      );
      if (!funded) return;
    }
    const receipt = await sendAndWait(account, { to: token.contract, data, gas, maxFeePerGas, maxPriorityFeePerGas }, transfer);
    if (!receipt) return;
    // A token that answers success without moving anything (some return false instead of reverting) is caught here.
    const left = await client.readContract({ address: token.contract, abi: erc20Abi, functionName: 'balanceOf', args: [address], blockNumber: receipt.blockNumber });
    if (left !== 0n) {
      report.failures.push({ index, address, ticker: token.ticker, amount, reason: `${receipt.transactionHash} succeeded but ${formatUnits(left, token.decimals)} ${token.ticker} is still there` });
    }
  }
}

const pick = (step: { index: number; address: `0x${string}`; ticker: string; amount: string }) => ({
  index: step.index,
  address: step.address,
  ticker: step.ticker,
  amount: step.amount,
});

/** The report as the operator reads it: each transaction with its gas, what was left and why, what failed. */
export function formatSweepReport(report: SweepReport): string {
  const lines = [`wallet:sweep ${report.network} to ${report.to}${report.dryRun ? ' (dry run: nothing sent)' : ''}`];
  if (report.steps.length === 0) lines.push('  nothing to sweep');
  for (const step of report.steps) {
    const where = step.kind === 'gas_top_up' ? `gas station → ${step.address}` : `${step.address} (index ${step.index}) → ${report.to}`;
    const gas = step.gasUsed !== undefined ? `gas used ${step.gasUsed}, cost ${formatUnits(step.gasCost ?? 0n, NATIVE_DECIMALS)}` : `gas limit ${step.gasLimit}, fee cap ${formatUnits(step.maxFeePerGas, 9)} gwei`;
    lines.push(`  ${step.kind.padEnd(10)} ${step.amount} ${step.ticker}  ${where}  ${gas}${step.txid ? `  ${step.txid}` : ''}`);
  }
  for (const skip of report.skipped) lines.push(`  left       ${skip.amount} ${skip.ticker} at ${skip.address} (index ${skip.index}): ${skip.reason}`);
  for (const failure of report.failures) lines.push(`  FAILED     ${failure.amount} ${failure.ticker} at ${failure.address} (index ${failure.index}): ${failure.reason}`);
  lines.push(report.failures.length === 0 ? 'done' : `${report.failures.length} FAILED`);
  return lines.join('\n');
}
