import { z } from 'zod/mini';
import { apiNames, decimalString } from './common.ts';
import { page, paginator, positiveDecimal } from './market.ts';

/**
 * POST /api/user/wallet/ (docs/api.md "User calls") and the development chain driver
 * POST /api/dev/chain/.
 */

/**
 * The chains (docs/api.md "User calls"): a key names an address format and a derivation, shared by the coins on it.
 * These four are built in, each with its own account key (WALLET_XPUB_<KEY>); any other key is an EVM network an
 * operator configured (docs/chains.md "Adding a network"), with Ethereum's addresses. So a key on the wire is any
 * key `coin_networks` may hold, and its name and image come from there.
 */
export const NETWORK_KEYS = ['bitcoin', 'ethereum', 'tron', 'litecoin'] as const;
export type BuiltInNetworkKey = (typeof NETWORK_KEYS)[number];
export const isBuiltInNetworkKey = (value: string | undefined): value is BuiltInNetworkKey => NETWORK_KEYS.some((key) => key === value);
export const NETWORK_KEY_PATTERN = /^[a-z0-9_]{2,32}$/;
export const networkKey = z.string({ error: 'network is required' }).check(z.regex(NETWORK_KEY_PATTERN, 'network must be a network key'));
export type NetworkKey = string;

/** docs/rules.md "Wallets": a deposit is credited at 1 confirmation and must be worth at least 5 USD when it arrives. */
export const DEPOSIT_CONFIRMATIONS = 1;
export const DEPOSIT_MIN_USD = '5';
/** How long the server keeps a withdrawal preview for `confirm_withdrawal`. */
export const WITHDRAWAL_PREVIEW_SECONDS = 120;
/** Withdrawals wait this long after a password reset or a two-factor change. */
export const WITHDRAWAL_LOCK_HOURS = 24;

/** {type:"list"}: one per coin, the trader's available balance to the coin's places. */
export const walletItem = z.object({
  id: z.int(),
  balance: decimalString,
  coin__price: decimalString,
  coin__ticker: z.string(),
  coin__label: z.string(),
  coin__image: z.string(),
  coin__decimal_places: z.int(),
});
export type WalletItem = z.infer<typeof walletItem>;
export const walletList = z.array(walletItem).register(apiNames, { id: 'WalletList' });

/** {type:"addresses"}: per coin, the trader's own deposit address on each of its networks. */
export const walletNetwork = z.object({
  id: z.int(),
  name: z.string(),
  image: z.string(),
  key: networkKey,
  address: z.string(),
  /** How many confirmations credit a deposit on this network (its own block counts as one). */
  confirmations: z.int().check(z.gte(1)),
});
export type WalletNetwork = z.infer<typeof walletNetwork>;
export const walletAddressEntry = z.object({
  coin: z.object({
    id: z.int(),
    label: z.string(),
    ticker: z.string(),
    image: z.string(),
    price: decimalString,
    decimal_places: z.int(),
  }),
  balance: decimalString,
  networks: z.array(walletNetwork),
});
export type WalletAddressEntry = z.infer<typeof walletAddressEntry>;
export const walletAddresses = z.array(walletAddressEntry).register(apiNames, { id: 'WalletAddresses' });

export const withdrawalMode = z.enum(['usd', 'crypto']);
export type WithdrawalMode = z.infer<typeof withdrawalMode>;
export const walletTransactionType = z.enum(['deposit', 'withdrawal']);
export type WalletTransactionType = z.infer<typeof walletTransactionType>;
/**
 * `review`: an external withdrawal at or above WITHDRAWAL_REVIEW_USD waiting for an operator's decision (docs/rules.md
 * "Wallets"); approved it turns `pending` and goes to the chain, rejected it turns `cancelled` and is refunded.
 */
export const walletTransactionStatus = z.enum(['pending', 'review', 'completed', 'cancelled']);
export type WalletTransactionStatus = z.infer<typeof walletTransactionStatus>;
/** `external`: on the chain; `internal`: to another Peerex trader's deposit address, settled at once without a network fee. */
export const walletTransactionScope = z.enum(['external', 'internal']);
export type WalletTransactionScope = z.infer<typeof walletTransactionScope>;

const recipient = z
  .string({ error: 'recipient is required' })
  .check(z.trim(), z.minLength(1, 'recipient is required'), z.maxLength(128, 'recipient is not an address'));

export const walletRequest = z.discriminatedUnion('type', [
  z.object({ type: z.literal('list') }),
  z.object({ type: z.literal('addresses') }),
  z.object({
    type: z.literal('preview_withdrawal'),
    /** In USD (mode `usd`, at most 2 places) or in the coin (mode `crypto`, at most the coin's places). */
    amount: positiveDecimal('amount', 18),
    mode: withdrawalMode,
    recipient,
    ticker: z.string({ error: 'ticker is required' }).check(z.trim(), z.minLength(1, 'ticker is required'), z.maxLength(10)),
    network: z.string({ error: 'network is required' }).check(z.trim(), z.minLength(1, 'network is required'), z.maxLength(32)),
  }),
  /** Nothing else: the server executes the preview it kept. */
  z.object({ type: z.literal('confirm_withdrawal') }),
  z.object({
    type: z.literal('history'),
    page,
    filters: z._default(
      z.optional(
        z.object({
          trans_type: z.optional(z.union([walletTransactionType, z.literal('')])),
          status: z.optional(z.union([walletTransactionStatus, z.literal('')])),
          coin__id: z.optional(z.union([z.int(), z.string().check(z.regex(/^\d{0,9}$/, 'coin__id must be a coin id'))])),
        }),
      ),
      {},
    ),
  }),
]).register(apiNames, { id: 'WalletRequest' });
export type WalletRequest = z.infer<typeof walletRequest>;
/** What `preview_withdrawal` asks: the form's fields as typed. */
export type WithdrawalAsk = Omit<Extract<WalletRequest, { type: 'preview_withdrawal' }>, 'type'>;
/** What `history` asks: a page and the filters that are set. */
export type WalletHistoryAsk = Omit<Extract<WalletRequest, { type: 'history' }>, 'type'>;

/**
 * {type:"preview_withdrawal"}: the fee in USD and in the coin, and what the server will execute on
 * confirm: the amount leaving the balance (in USD mode, converted at the current price, rounded down to
 * the coin's places), what the recipient receives (amount − fee), and when the preview expires.
 */
export const withdrawalPreview = z.object({
  fee_usd: decimalString,
  fee_crypto: decimalString,
  amount_crypto: decimalString,
  amount_usd: decimalString,
  receive_crypto: decimalString,
  scope: walletTransactionScope,
  /** ISO 8601. */
  expires: z.string(),
}).register(apiNames, { id: 'WithdrawalPreview' });
export type WithdrawalPreview = z.infer<typeof withdrawalPreview>;

/** {type:"history"}: a wallet transaction (docs/api.md "User calls"), plus the network it travelled on. */
export const walletTransaction = z.object({
  id: z.int(),
  /** ISO 8601. */
  created: z.string(),
  trans_type: walletTransactionType,
  coin__image: z.string(),
  coin__ticker: z.string(),
  coin__decimal_places: z.int(),
  network: z.string(),
  amount_crypto: decimalString,
  amount_usd: decimalString,
  fee_crypto: decimalString,
  fee_usd: decimalString,
  /** Null while a withdrawal waits for its broadcast, and for internal transfers. */
  txid: z.nullable(z.string()),
  scope: walletTransactionScope,
  status: walletTransactionStatus,
});
export type WalletTransaction = z.infer<typeof walletTransaction>;
export const walletHistory = z.object({ transactions: z.array(walletTransaction), paginator }).register(apiNames, { id: 'WalletHistory' });
export type WalletHistory = z.infer<typeof walletHistory>;

/**
 * POST /api/dev/chain/ (development only, like the outbox): drives CHAIN_SOURCE=simulated.
 * `deposit` sends `amount` of `ticker` (default: the network's own coin, or its only one) to `address`;
 * `mine` adds blocks to every network.
 */
export const devChainRequest = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('deposit'),
    /** The simulated chain carries the built-in networks only (an operator's EVM network has its own node). */
    network: z.enum(NETWORK_KEYS),
    address: z.string({ error: 'address is required' }).check(z.trim(), z.minLength(1, 'address is required'), z.maxLength(128)),
    amount: positiveDecimal('amount', 18),
    ticker: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(10))),
  }),
  z.object({
    type: z.literal('mine'),
    blocks: z._default(z.optional(z.int().check(z.gte(1, 'blocks must be 1 or more'), z.lte(100, 'blocks must be at most 100'))), 1),
  }),
]).register(apiNames, { id: 'DevChainRequest' });
export type DevChainRequest = z.infer<typeof devChainRequest>;
export const devChainDeposit = z.object({ txid: z.string() }).register(apiNames, { id: 'DevChainDeposit' });
export const devChainMine = z.object({ mined: z.int() }).register(apiNames, { id: 'DevChainMine' });
