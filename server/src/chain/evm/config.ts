import { z } from 'zod';
import { isBuiltInNetworkKey, NETWORK_KEY_PATTERN, type NetworkKey } from '../../../../contracts/wallet.ts';

/**
 * The EVM networks this server reads and pays on through a real node (docs/chains.md), one set of
 * `EVM_<NETWORK>_*` variables per network named in EVM_NETWORKS. A network not named there stays on
 * CHAIN_SOURCE (the simulated chain by default). Everything here is configuration: the adapter
 * (chain/evm/evm-chain.ts) knows no chain id, contract or confirmation count of its own. A network key may be
 * `ethereum` or any other (`polygon`, `bnb`, `arbitrum`): every EVM network has Ethereum's addresses
 * (wallets/networks.ts chainNetworkOf), so adding one is these variables and its coin_networks rows.
 */
export interface EvmToken {
  /** The coin's ticker as the `coins` table writes it (USDT). */
  ticker: string;
  /** The ERC-20 contract, EIP-55 checksummed. */
  contract: `0x${string}`;
  /** The contract's `decimals()`: the token's smallest unit is 10^-decimals (USDT: 6). */
  decimals: number;
}

/** Where withdrawals are signed: a key file on this machine, or a signer that answers eth_signTransaction. */
export type EvmHotWallet = { kind: 'key-file'; path: string } | { kind: 'signer'; url: string; address: `0x${string}` };

export interface EvmNetworkConfig {
  network: NetworkKey;
  /** What the node must answer to eth_chainId (production refuses to start otherwise). */
  chainId: number;
  rpcUrl: string;
  /** A websocket endpoint of the same node: new heads are heard at once instead of at the next poll. */
  wsUrl: string | undefined;
  /** A deposit is credited once its block has this many confirmations (its own block counts as 1). */
  confirmations: number;
  /** The chain's own coin (ETH on Ethereum, POL on Polygon, BNB on BNB Smart Chain), 18 decimals on every EVM chain. */
  native: string;
  tokens: EvmToken[];
  /** The first block the watcher reads when it has no cursor yet; unset: the node's head at that moment. */
  startBlock: bigint | undefined;
  /** Unset: deposits are read and credited, withdrawals wait (the operator is told). */
  hotWallet: EvmHotWallet | undefined;
  /** Addresses the operator keeps coins in (cold storage): counted by chain:reconcile as holdings. */
  coldAddresses: `0x${string}`[];
  /**
   * The operator's gas station (EVM_<NETWORK>_GAS_STATION_ADDRESS): the key `npm run wallet:sweep` pays the gas of
   * token sweeps from (chain/evm/sweep.ts). What it sends a deposit address is a top-up, never a deposit.
   */
  gasStation?: `0x${string}`;
  /** A withdrawal's transaction still unmined this long after it was sent is replaced at the same nonce with higher fees. */
  replaceAfterSeconds: number;
  /** Blocks read per request (eth_getLogs range, blocks fetched per page). */
  blocksPerPage: number;
}

/** The chain's own coin has 18 decimals on every EVM network (wei). */
export const NATIVE_DECIMALS = 18;

/** What each network's native coin is called when EVM_<NETWORK>_NATIVE is not set. */
const DEFAULT_NATIVE: Readonly<Record<string, string>> = { ethereum: 'ETH' };

export class EvmConfigError extends Error {
  override name = 'EvmConfigError';
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const address = z.string().trim().regex(ADDRESS, 'must be a 0x address of 40 hex digits');
const url = (schemes: string[]) =>
  z
    .string()
    .trim()
    .refine((text) => {
      try {
        return schemes.includes(new URL(text).protocol);
      } catch {
        return false;
      }
    }, `must be a ${schemes.map((scheme) => scheme.replace(':', '://')).join(' or ')} URL`);

/** `USDT:0xdAC17F958D2ee523a2206206994597C13D831ec7:6,…`: ticker, contract and decimals per token. */
const tokens = z
  .string()
  .trim()
  .transform((text, context) => {
    const parsed: EvmToken[] = [];
    for (const entry of text.split(',').map((part) => part.trim()).filter((part) => part !== '')) {
      const [ticker, contract, decimals, ...rest] = entry.split(':');
      if (rest.length > 0 || !ticker || !/^[A-Z0-9]{2,10}$/.test(ticker) || !contract || !ADDRESS.test(contract) || !/^\d{1,2}$/.test(decimals ?? '') || Number(decimals) > 36) {
        context.addIssue({ code: 'custom', message: `"${entry}" is not TICKER:0xCONTRACT:DECIMALS (for example USDT:0xdAC17F958D2ee523a2206206994597C13D831ec7:6)` });
        return z.NEVER;
      }
      parsed.push({ ticker, contract: contract as `0x${string}`, decimals: Number(decimals) });
    }
    return parsed;
  });

const networkSchema = z.object({
  CHAIN_ID: z.coerce.number().int().positive(),
  RPC_URL: url(['http:', 'https:']),
  WS_URL: url(['ws:', 'wss:']).optional(),
  CONFIRMATIONS: z.coerce.number().int().min(1).max(10_000).default(12),
  NATIVE: z.string().trim().regex(/^[A-Z0-9]{2,10}$/, 'must be a coin ticker (ETH)').optional(),
  TOKENS: tokens.default([]),
  START_BLOCK: z.coerce.bigint().nonnegative().optional(),
  HOT_WALLET_KEY_FILE: z.string().trim().min(1).optional(),
  HOT_WALLET_SIGNER_URL: url(['http:', 'https:']).optional(),
  HOT_WALLET_ADDRESS: address.optional(),
  COLD_ADDRESSES: z
    .string()
    .trim()
    .default('')
    .transform((text) => text.split(',').map((part) => part.trim()).filter((part) => part !== ''))
    .pipe(z.array(address)),
  GAS_STATION_ADDRESS: address.optional(),
  REPLACE_AFTER_SECONDS: z.coerce.number().int().min(10).max(86_400).default(180),
  BLOCKS_PER_PAGE: z.coerce.number().int().min(1).max(10_000).default(100),
});

/** The variable that holds one setting of one network: EVM_ETHEREUM_RPC_URL. */
export const evmVariable = (network: string, setting: string) => `EVM_${network.toUpperCase()}_${setting}`;

/**
 * EVM_NETWORKS (comma-separated network keys) and each named network's EVM_<NETWORK>_* variables, or an
 * EvmConfigError listing every problem by its variable's name.
 */
export function parseEvmNetworks(env: NodeJS.ProcessEnv): EvmNetworkConfig[] {
  const names = (env.EVM_NETWORKS ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
  const problems: string[] = [];
  const configs: EvmNetworkConfig[] = [];
  for (const name of new Set(names)) {
    if (!NETWORK_KEY_PATTERN.test(name)) {
      problems.push(`EVM_NETWORKS: "${name}" is not a network key (2 to 32 of a-z, 0-9 and _, as coin_networks writes it)`);
      continue;
    }
    if (isBuiltInNetworkKey(name) && name !== 'ethereum') {
      problems.push(`EVM_NETWORKS: "${name}" is not an EVM network`);
      continue;
    }
    const network: NetworkKey = name;
    const prefix = `EVM_${network.toUpperCase()}_`;
    const settings = Object.fromEntries(
      Object.entries(env)
        .filter(([key, value]) => key.startsWith(prefix) && value !== undefined && value.trim() !== '')
        .map(([key, value]) => [key.slice(prefix.length), value]),
    );
    const parsed = networkSchema.safeParse(settings);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) problems.push(`${prefix}${issue.path.join('.')}: ${issue.message}`);
      continue;
    }
    const s = parsed.data;
    const native = s.NATIVE ?? (Object.hasOwn(DEFAULT_NATIVE, network) ? DEFAULT_NATIVE[network] : undefined);
    if (native === undefined) {
      problems.push(`${prefix}NATIVE: required (the ticker of the network's own coin, as the coins table writes it)`);
      continue;
    }
    if (s.HOT_WALLET_KEY_FILE !== undefined && s.HOT_WALLET_SIGNER_URL !== undefined) {
      problems.push(`${prefix}HOT_WALLET_KEY_FILE, ${prefix}HOT_WALLET_SIGNER_URL: set one of them, not both`);
      continue;
    }
    if ((s.HOT_WALLET_SIGNER_URL === undefined) !== (s.HOT_WALLET_ADDRESS === undefined)) {
      problems.push(`${prefix}HOT_WALLET_SIGNER_URL, ${prefix}HOT_WALLET_ADDRESS: set both (the signer and the address it signs for) or neither`);
      continue;
    }
    const tickers = [native, ...s.TOKENS.map((token) => token.ticker)];
    if (new Set(tickers).size !== tickers.length) {
      problems.push(`${prefix}TOKENS: a ticker appears twice (${tickers.join(', ')})`);
      continue;
    }
    configs.push({
      network,
      chainId: s.CHAIN_ID,
      rpcUrl: s.RPC_URL,
      wsUrl: s.WS_URL,
      confirmations: s.CONFIRMATIONS,
      native,
      tokens: s.TOKENS,
      startBlock: s.START_BLOCK,
      hotWallet:
        s.HOT_WALLET_KEY_FILE !== undefined
          ? { kind: 'key-file', path: s.HOT_WALLET_KEY_FILE }
          : s.HOT_WALLET_SIGNER_URL !== undefined && s.HOT_WALLET_ADDRESS !== undefined
            ? { kind: 'signer', url: s.HOT_WALLET_SIGNER_URL, address: s.HOT_WALLET_ADDRESS as `0x${string}` }
            : undefined,
      coldAddresses: s.COLD_ADDRESSES as `0x${string}`[],
      ...(s.GAS_STATION_ADDRESS !== undefined ? { gasStation: s.GAS_STATION_ADDRESS as `0x${string}` } : {}),
      replaceAfterSeconds: s.REPLACE_AFTER_SECONDS,
      blocksPerPage: s.BLOCKS_PER_PAGE,
    });
  }
  if (problems.length > 0) throw new EvmConfigError(`Invalid configuration:\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
  return configs;
}

/** The token a ticker names on this network, or undefined for the native coin (or an unknown ticker). */
export const tokenOf = (config: EvmNetworkConfig, ticker: string) => config.tokens.find((token) => token.ticker === ticker);
