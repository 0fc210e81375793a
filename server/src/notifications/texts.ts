import type { NetworkKey } from '../../../contracts/wallet.ts';
import { FIAT_PLACES, fixed } from '../ledger/money.ts';
import type { NotificationDraft } from './notify.ts';

/**
 * What each notification says (docs/rules.md "Notifications"): a short title, and a body a person
 * understands on a lock screen without the app open: who did what, the amounts with their ticker or currency,
 * and what to do next. Producers call these and hand the drafts to the notify seam.
 */

/** migrations/017: a title holds 120 characters, a body 500. */
const TITLE_LENGTH = 120;
const BODY_LENGTH = 500;
/** A quoted chat message or dispute reason: enough to know what it is about, short enough for a lock screen. */
const QUOTE_LENGTH = 160;

const clip = (text: string, length: number) => (text.length <= length ? text : `${text.slice(0, length - 1)}…`);
/** A notification of `kind` to `userId`, its title and body clipped to what the bell shows. */
export const draft = (userId: string, kind: NotificationDraft['kind'], title: string, body: string, link: string | null): NotificationDraft => ({
  userId,
  kind,
  title: clip(title, TITLE_LENGTH),
  body: clip(body, BODY_LENGTH),
  link,
});

export const chatLink = (channel: string) => `/chat?channel=${encodeURIComponent(channel)}`;
export const TRANSACTIONS_LINK = '/wallets/transactions';
export const SECURITY_LINK = '/settings/security';

/** A trade as its notifications word it: the parties, the coin and the frozen figures. */
export interface TradeWords {
  channel: string;
  buyer_id: string;
  seller_id: string;
  buyer: string;
  seller: string;
  ticker: string;
  decimal_places: number;
  currency_code: string;
  /** Fiat the buyer pays. */
  trading_amount: string;
  /** Crypto held in escrow. */
  trading_amount_crypto: string;
  /** Crypto the buyer receives (after the fee). */
  amount_crypto: string;
}

const crypto = (amount: string, trade: TradeWords) => `${fixed(amount, trade.decimal_places)} ${trade.ticker}`;
const fiat = (trade: TradeWords) => `${fixed(trade.trading_amount, FIAT_PLACES)} ${trade.currency_code}`;
/** "0.0099 BTC for 970.00 EUR": the trade in one phrase. */
/** "0.01000000 BTC for 650.00 USD": a trade's amounts as every trade notification words them. */
export const deal = (trade: TradeWords) => `${crypto(trade.amount_crypto, trade)} for ${fiat(trade)}`;

export const tradeTexts = {
  /** To the offer's owner: somebody took their offer. */
  opened(trade: TradeWords, ownerId: string, paymentMethod: string, paymentWindowMinutes: number): NotificationDraft {
    const ownerSells = ownerId === trade.seller_id;
    const body = ownerSells
      ? `${trade.buyer} is buying ${deal(trade)} by ${paymentMethod} on your offer. ${crypto(trade.trading_amount_crypto, trade)} is held in escrow. ` +
        `Release the coin once the payment has arrived.`
      : `${trade.seller} is selling you ${deal(trade)} on your offer. Pay by ${paymentMethod} within ${paymentWindowMinutes} minutes and mark it paid in the chat.`;
    return draft(ownerId, 'trade_opened', 'New trade on your offer', body, chatLink(trade.channel));
  },

  /** To the seller; `payerAccount` as the buyer stated it, '' when they did not. */
  paymentMarked: (trade: TradeWords, payerAccount = ''): NotificationDraft =>
    draft(
      trade.seller_id,
      'payment_marked',
      'Payment marked as sent',
      payerAccount === ''
        ? `${trade.buyer} says they paid ${fiat(trade)}. Check that it has arrived, then release ${crypto(trade.trading_amount_crypto, trade)}.`
        : `${trade.buyer} says they paid ${fiat(trade)} from the account "${clip(payerAccount, QUOTE_LENGTH)}". Check that it has arrived from ` +
          `that account, then release ${crypto(trade.trading_amount_crypto, trade)}.`,
      chatLink(trade.channel),
    ),

  /** To the buyer. */
  coinReleased: (trade: TradeWords): NotificationDraft =>
    draft(
      trade.buyer_id,
      'coin_released',
      'Coin released',
      `${trade.seller} released ${crypto(trade.amount_crypto, trade)} to you. It is in your wallet, and the trade is completed.`,
      chatLink(trade.channel),
    ),

  /** To one party who did not cancel. */
  cancelled: (trade: TradeWords, to: string, actor: string): NotificationDraft =>
    draft(
      to,
      'trade_cancelled',
      'Trade cancelled',
      `${actor} cancelled the trade of ${deal(trade)}. ${crypto(trade.trading_amount_crypto, trade)} went back to ${trade.seller}. Do not send a payment for it.`,
      chatLink(trade.channel),
    ),

  /** To each party: the payment window ran out. */
  expired: (trade: TradeWords, to: string, paymentWindowMinutes: number): NotificationDraft =>
    draft(
      to,
      'trade_expired',
      'Trade expired',
      `The ${paymentWindowMinutes}-minute payment window of the trade of ${deal(trade)} between ${trade.buyer} and ${trade.seller} ran out, ` +
        `so it was cancelled. ${crypto(trade.trading_amount_crypto, trade)} went back to ${trade.seller}.`,
      chatLink(trade.channel),
    ),

  /** To the party who did not raise it. */
  disputed: (trade: TradeWords, to: string, actor: string, reason: string): NotificationDraft =>
    draft(
      to,
      'dispute_raised',
      'Dispute raised',
      `${actor} raised a dispute on the trade of ${deal(trade)}. The trade is frozen until a moderator settles it; explain your side in the chat. ` +
        `Reason: ${clip(reason, QUOTE_LENGTH)}`,
      chatLink(trade.channel),
    ),

  /** To each party: a moderator settled their dispute, the coins going to the buyer (`release`) or back to the seller (`refund`). */
  disputeResolved: (trade: TradeWords, to: string, outcome: 'release' | 'refund', resolution: string): NotificationDraft =>
    draft(
      to,
      'dispute_resolved',
      'Dispute settled',
      (outcome === 'release'
        ? `A moderator settled the dispute on the trade of ${deal(trade)}: ${crypto(trade.amount_crypto, trade)} went to ${trade.buyer}, and the trade is completed. `
        : `A moderator settled the dispute on the trade of ${deal(trade)}: ${crypto(trade.trading_amount_crypto, trade)} went back to ${trade.seller}, and the trade is cancelled. `) +
        `Resolution: ${clip(resolution, QUOTE_LENGTH)}`,
      chatLink(trade.channel),
    ),

  /** To the recipient of a chat message, while they are offline. */
  chatMessage: (channel: string, to: string, sender: string, text: string): NotificationDraft =>
    draft(to, 'chat_message', `New message from ${sender}`, `${sender}: ${clip(text, QUOTE_LENGTH)}`, chatLink(channel)),
};

export const walletTexts = {
  depositCredited: (userId: string, amount: string, ticker: string, network: NetworkKey | string): NotificationDraft =>
    draft(
      userId,
      'deposit_credited',
      'Deposit credited',
      `${amount} ${ticker} arrived on ${network} and is now in your wallet, ready to trade or withdraw.`,
      TRANSACTIONS_LINK,
    ),

  /** A transfer from another trader of this platform (no chain, credited at once). */
  internalDepositCredited: (userId: string, amount: string, ticker: string, sender: string): NotificationDraft =>
    draft(userId, 'deposit_credited', 'Deposit credited', `${sender} sent you ${amount} ${ticker}. It is in your wallet now.`, TRANSACTIONS_LINK),

  withdrawalCompleted: (userId: string, amount: string, ticker: string, network: NetworkKey | string, address: string): NotificationDraft =>
    draft(
      userId,
      'withdrawal_completed',
      'Withdrawal completed',
      `${amount} ${ticker} was sent on ${network} to ${address}. The transaction is in a block; the history shows its ID.`,
      TRANSACTIONS_LINK,
    ),

  /** An operator approved a withdrawal that waited for review: it goes to the chain now. */
  withdrawalApproved: (userId: string, amount: string, ticker: string, network: NetworkKey | string, address: string): NotificationDraft =>
    draft(
      userId,
      'withdrawal_approved',
      'Withdrawal approved',
      `Your withdrawal of ${amount} ${ticker} on ${network} to ${address} was approved and is on its way to the chain. You will be told when it is in a block.`,
      TRANSACTIONS_LINK,
    ),

  /** An operator rejected a withdrawal that waited for review: its amount is back in the wallet. */
  withdrawalRejected: (userId: string, amount: string, ticker: string, network: NetworkKey | string, reason: string): NotificationDraft =>
    draft(
      userId,
      'withdrawal_rejected',
      'Withdrawal rejected',
      `Your withdrawal of ${amount} ${ticker} on ${network} was rejected: "${clip(reason, QUOTE_LENGTH)}". The ${amount} ${ticker} is back in your wallet.`,
      TRANSACTIONS_LINK,
    ),
};

/** What operators are told (docs/operators.md "Notifications"); the console's overview links each. */
export const OPERATOR_LINK = '/operator';
/** The console's withdrawal review queue. */
export const REVIEWS_LINK = '/operator/reviews';
export const operatorTexts = {
  /** A chain incident only an operator settles (docs/chains.md "Re-organisations", "Withdrawals"). */
  chainIncident: (userId: string, network: string, kind: string, detail: string): NotificationDraft =>
    draft(userId, 'chain_incident', `Chain incident on ${network}`, `${kind.replaceAll('_', ' ')}: ${detail}. npm run chain:reconcile lists the open incidents.`, OPERATOR_LINK),

  /** A withdrawal at or above WITHDRAWAL_REVIEW_USD waits for an operator's decision (docs/operators.md "Withdrawal review"). */
  withdrawalReview: (userId: string, trader: string, amount: string, ticker: string, network: string, amountUsd: string): NotificationDraft =>
    draft(
      userId,
      'withdrawal_review',
      'Withdrawal waiting for review',
      `${trader} withdraws ${amount} ${ticker} on ${network}, worth ${amountUsd} USD. Approve or reject it in the review queue.`,
      REVIEWS_LINK,
    ),
};

const ifNotYou = 'If this was not you, reset your password now and turn on two-factor authentication.';

/**
 * A moment a wait ends, as notifications and refusals print it: in UTC to the minute, rounded up so that the
 * time it names is never still inside the wait.
 */
export const utcMinuteUp = (at: Date): string =>
  `${new Date(Math.ceil(at.getTime() / 60_000) * 60_000).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
const utc = utcMinuteUp;

/**
 * Where a sign-in came from, as "New sign-in" and its mail say it: `device` as the sign-in named it (may be empty),
 * `client` the address it came from (may be empty).
 */
const signInOrigin = (device: string, client: string): string =>
  [device.trim() === '' ? 'a device that gave no name' : device.trim(), client === '' ? '' : `at ${client}`].filter(Boolean).join(' ');

export const securityTexts = {
  /** A sign-in from a device or address new to the account (server/src/accounts/README.md "New sign-ins"). */
  signIn(userId: string, device: string, client: string): NotificationDraft {
    return draft(userId, 'sign_in', 'New sign-in', `Your account was signed in from ${signInOrigin(device, client)}. ${ifNotYou}`, SECURITY_LINK);
  },

  passwordChanged: (userId: string): NotificationDraft =>
    draft(
      userId,
      'password_changed',
      'Password changed',
      'Your password was reset with a code mailed to you, and every device was signed out. If this was not you, reset it again at once and check your mailbox.',
      SECURITY_LINK,
    ),

  twoFactorChanged: (userId: string, enabled: boolean): NotificationDraft =>
    enabled
      ? draft(
          userId,
          'two_factor_changed',
          'Two-factor authentication on',
          'Signing in now takes a code from your authenticator app. Keep your recovery codes somewhere safe.',
          SECURITY_LINK,
        )
      : draft(
          userId,
          'two_factor_changed',
          'Two-factor authentication off',
          `Signing in no longer asks for an authenticator code. ${ifNotYou}`,
          SECURITY_LINK,
        ),

  /** "Sign out everywhere else": `count` other sessions ended. */
  signedOutElsewhere: (userId: string, count: number): NotificationDraft =>
    draft(
      userId,
      'signed_out_elsewhere',
      'Signed out everywhere else',
      `${count === 1 ? '1 other session was' : `${count} other sessions were`} signed out; only the device that asked is still signed in. ${ifNotYou}`,
      SECURITY_LINK,
    ),

  antiPhishingCodeChanged: (userId: string, set: boolean): NotificationDraft =>
    set
      ? draft(
          userId,
          'anti_phishing_code_changed',
          'Anti-phishing code set',
          `Every email from Peerex now starts with your anti-phishing code. An email without it is not from us: do not click its links. ${ifNotYou}`,
          SECURITY_LINK,
        )
      : draft(
          userId,
          'anti_phishing_code_changed',
          'Anti-phishing code removed',
          `Emails from Peerex no longer carry an anti-phishing code. ${ifNotYou}`,
          SECURITY_LINK,
        ),

  withdrawalAllowlistOn: (userId: string): NotificationDraft =>
    draft(
      userId,
      'withdrawal_allowlist_changed',
      'Withdrawal allowlist on',
      'Withdrawals now go only to the addresses on your allowlist, once their wait is over.',
      SECURITY_LINK,
    ),

  /** `enforcedUntil`: the end of the wait after turning it off. */
  withdrawalAllowlistOff: (userId: string, enforcedUntil: Date): NotificationDraft =>
    draft(
      userId,
      'withdrawal_allowlist_changed',
      'Withdrawal allowlist off',
      `Your withdrawal allowlist was turned off. It still applies until ${utc(enforcedUntil)}; after that, withdrawals may go to any address. ${ifNotYou}`,
      SECURITY_LINK,
    ),

  withdrawalAddressAdded: (userId: string, network: string, address: string, usableFrom: Date): NotificationDraft =>
    draft(
      userId,
      'withdrawal_allowlist_changed',
      'Withdrawal address added',
      `${address} (${network}) was added to your withdrawal allowlist. Withdrawals can go to it from ${utc(usableFrom)}. ` +
        `If this was not you, remove it now, then reset your password.`,
      SECURITY_LINK,
    ),

  withdrawalAddressRemoved: (userId: string, network: string, address: string): NotificationDraft =>
    draft(
      userId,
      'withdrawal_allowlist_changed',
      'Withdrawal address removed',
      `${address} (${network}) was removed from your withdrawal allowlist. Withdrawals can no longer go to it while the list applies.`,
      SECURITY_LINK,
    ),
};
