import { z } from 'zod/mini';
import { envelope, info, json, named, type CallDocumentation, type Parameter } from '../infra/http/call.ts';
import { allowlistRequest, allowlistStatus, antiPhishingRequest, antiPhishingStatus, sessionsRequest, signInHistory, signOutOthersResponse } from '../../../contracts/account-protections.ts';
import { chatMessage, chatMessages, chatRequest, realtimeAuthRequest, realtimeAuthResponse, typingResponse, webAppConfig } from '../../../contracts/chat.ts';
import { emptyBody } from '../../../contracts/common.ts';
import { coinsResponse, editableOffer, offerComponents, offerList, offersRequest, offerToggleResponse } from '../../../contracts/market.ts';
import { disputeDetail, disputeList, moderationRequest } from '../../../contracts/moderation.ts';
import { beamsTokenResponse, notificationList, notificationsRequest, unreadCount } from '../../../contracts/notifications.ts';
import {
  confirmationRequest,
  confirmationStatus,
  loginRequest,
  loginResponse,
  logoutRequest,
  messageResponse,
  recoveryCodesResponse,
  registerRequest,
  resetPasswordRequest,
  sessionResponse,
  twoFactorLoginRequest,
  twoFactorRequest,
  twoFactorSetupResponse,
  twoFactorStatusResponse,
  validateEmailRequest,
} from '../../../contracts/security.ts';
import { devOutboxResponse, healthResponse, readyResponse } from '../../../contracts/system.ts';
import { conversations, conversationsRequest, TRADE_CHANNEL_HEADER, tradeHistory, tradePreview, tradeRequest } from '../../../contracts/trade.ts';
import { traderProfile, tradersRequest, traderStanding } from '../../../contracts/traders.ts';
import { overview } from '../../../contracts/user.ts';
import { devChainDeposit, devChainMine, devChainRequest, walletAddresses, walletHistory, walletList, walletRequest, withdrawalPreview } from '../../../contracts/wallet.ts';

/**
 * Every call the server registers, as an integrator needs to know it:
 * one entry per method and path, with the contract's own zod schemas. server/src/openapi/document.ts turns this
 * into the OpenAPI document served at GET /api/openapi.json; tests/server/openapi.test.ts checks it against the
 * routes the app registers, so a call added to the server without an entry here fails the suite.
 * The wording of the descriptions is docs/api.md's.
 */

// ---- Named schemas used by several calls ---------------------------------------------------------------------

const message = named('Message', messageResponse);
const session = named('Session', sessionResponse);
const empty = named('EmptyBody', emptyBody);
const chatMessageSchema = named('ChatMessage', chatMessage);
const healthInfo = named('Health', healthResponse);

export const CATALOGUE: readonly CallDocumentation[] = [
  // ---- System ----------------------------------------------------------------------------------------------

  // ---- Security ----------------------------------------------------------------------------------------------

  // ---- User ------------------------------------------------------------------------------------------------
  {
    method: 'post',
    path: '/api/user/wallet/',
    tag: 'User',
    summary: 'Wallets and withdrawals',
    description:
      "The trader's own wallets only. `list` → one item per coin with the available balance. `addresses` → the trader's own deposit address on each network. `preview_withdrawal` → the fees and what will leave the balance; kept as the pending withdrawal for 2 minutes. `confirm_withdrawal` → a sentence; executes the kept preview exactly once (409 without one). `history` → `{transactions, paginator}`, newest first, 10 a page. Withdrawals are refused (409) for 24 hours after a password reset or a two-factor change and limited per minute (429).",
    access: 'session',
    request: named('WalletRequest', walletRequest),
    answer: envelope(
      info(named('WalletList', walletList), 'list'),
      info(named('WalletAddresses', walletAddresses), 'addresses'),
      info(named('WithdrawalPreview', withdrawalPreview), 'preview_withdrawal'),
      info(message, 'confirm_withdrawal'),
      info(named('WalletHistory', walletHistory), 'history'),
    ),
    refusal: 'envelope',
    refusals: [409, 429],
  },
  {
    method: 'post',
    path: '/api/user/notifications/',
    tag: 'User',
    summary: 'Notifications',
    description:
      '`list` → `{count, items}`: the unread count and the newest 50, newest first. `open_one` and `open_all` → the new unread count (a number). An id that is not the caller\'s → 404 "No such notification".',
    access: 'session',
    request: named('NotificationsRequest', notificationsRequest),
    answer: envelope(info(named('NotificationList', notificationList), 'list'), info(named('UnreadCount', unreadCount), 'open_one', 'open_all')),
    refusal: 'envelope',
    refusals: [404],
  },

  // ---- Market ----------------------------------------------------------------------------------------------
  {
    method: 'post',
    path: '/api/market/trade/',
    tag: 'Market',
    summary: 'Trades',
    description:
      '`preview` → the figures of a trade on an offer. `open` (with `rate`, the offer\'s rate as the taker saw it) → one sentence; the header `X-Trade-Channel` names the new trade\'s channel. `history` → `{trades, paginator}`, newest first, 10 a page. `cancel`, `mark_paid`, `release_coin`, `raise_dispute` on a trade\'s `channel`, and `rate` after a completed trade → one sentence. `release_coin` carries the second proof, `password` or (two-factor on) `code`, unless the session\'s confirmation window is open: 403 "Please confirm the release with your password." / "…with your authenticator code." when it is missing or wrong (counted towards the sign-in lockout, 429). 409 "Selling is paused for 24 hours after a security change." for `open` as the seller and `release_coin` after a password reset, a two-factor change or a new allowlist address. 403 the wrong party, one\'s own offer, or an offer\'s condition the taker misses (the sentence names it); 404 an unknown trade or offer; 409 for the trade\'s state, a changed rate, an offer at its `max_open_trades`, a buyer taker at `MAX_OPEN_TRADES`, a seller under the security hold, or a trade too small to rate; 429 opening trades too fast.',
    access: 'session',
    request: named('TradeRequest', tradeRequest),
    answer: {
      kind: 'envelope',
      infos: [
        info(named('TradePreview', tradePreview), 'preview'),
        info(named('TradeHistory', tradeHistory), 'history'),
        info(message, 'open', 'cancel', 'mark_paid', 'release_coin', 'raise_dispute', 'rate'),
      ],
      headers: { [TRADE_CHANNEL_HEADER]: "`open` only: the new trade's chat channel." },
    },
    refusal: 'envelope',
    refusals: [403, 404, 409, 429],
  },
  {
    method: 'post',
    path: '/api/market/traders/',
    tag: 'Market',
    summary: 'Trader profile',
    description:
      '`profile` → a trader\'s public record: account age, figures as on Browse Offers with `rated_by` (distinct raters), each rater\'s latest rating (the newest 10) and their live offers. `username` is matched ignoring case. 404 "This trader does not exist.". `standing` → the caller\'s own `{completed_trades, account_age_days, two_factor}`, what offers\' conditions weigh.',
    access: 'session',
    request: named('TradersRequest', tradersRequest),
    answer: envelope(info(named('TraderProfile', traderProfile), 'profile'), info(named('TraderStanding', traderStanding), 'standing')),
    refusal: 'envelope',
    refusals: [404],
  },
  {
    method: 'post',
    path: '/api/market/moderation/',
    tag: 'Moderation',
    summary: 'Dispute desk',
    description:
      'Moderators only: any other caller gets 403 "Only moderators can use the dispute desk." before the body is read. `list` → the open disputes, oldest first. `get` → one trade\'s facts and chat. `message` → the stored message, sent as "Moderator". `resolve` (`release` or `refund`) → a sentence; 409 when another settlement won.',
    access: 'moderator',
    request: named('ModerationRequest', moderationRequest),
    answer: envelope(
      info(named('DisputeList', disputeList), 'list'),
      info(named('DisputeDetail', disputeDetail), 'get'),
      info(chatMessageSchema, 'message'),
      info(message, 'resolve'),
    ),
    refusal: 'envelope',
    refusals: [403, 404, 409, 429],
  },

  // ---- Chat ------------------------------------------------------------------------------------------------
  {
    method: 'post',
    path: '/api/market/chat/',
    tag: 'Chat',
    summary: 'Conversations',
    description:
      'One conversation per trade of the caller, by latest activity, at most 200. `search` keeps the partners whose username contains it; `online` says whether the partner has a live realtime connection right now.',
    access: 'session',
    request: named('ConversationsRequest', conversationsRequest),
    answer: envelope(info(named('Conversations', conversations))),
    refusal: 'envelope',
    refusals: [],
  },
  {
    method: 'post',
    path: '/api/market/chat/{channel}/',
    tag: 'Chat',
    summary: 'A trade\'s chat',
    description:
      '`messages` → the conversation\'s messages, oldest first, the newest 500 at most. `send_message` → the stored message, also published as `new_message` (409 on a completed or cancelled trade; 429 over `CHAT_MESSAGES_PER_MINUTE`). `typing` → `{sent}`: at most once per 500 ms, extra ones answer `{sent:false}`. A channel the caller is not a party to answers 404 "This trade does not exist.", exactly like an unknown one.',
    access: 'session',
    request: named('ChatRequest', chatRequest),
    answer: envelope(info(named('ChatMessages', chatMessages), 'messages'), info(chatMessageSchema, 'send_message'), info(named('Typing', typingResponse), 'typing')),
    refusal: 'envelope',
    refusals: [404, 409, 429],
  },

  // ---- Realtime and push ----------------------------------------------------------------------------------
  {
    method: 'get',
    path: '/api/push/beams-auth/',
    tag: 'Web push',
    summary: 'Beams token (TokenProvider)',
    description:
      '→ `{"token": "<JWT>"}`, not enveloped, as Beams\' `TokenProvider` expects: HS256, `sub` the username, `sid` the calling session (the device it binds goes when that session ends), valid 24 hours. Another user\'s id → 403; none → 400.',
    access: 'session',
    query: { user_id: { description: "The caller's own username.", required: true } },
    answer: json('BeamsToken', beamsTokenResponse),
    refusal: 'envelope',
    refusals: [403],
  },

  // ---- Development helpers --------------------------------------------------------------------------------


];
