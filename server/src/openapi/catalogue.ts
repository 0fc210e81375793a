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
  {
    method: 'post',
    path: '/api/security/login/',
    tag: 'Security',
    summary: 'Sign in',
    description:
      '`username` may be the username (any case) or the email. Success: `{two_factor:false, token, user}`. With two-factor on, it is `{two_factor:true, token:<interim token>, user:{username}}` instead, and only `security/two_factor_login/` accepts that token, for 5 minutes. 400 "Invalid username or password.", 429 "Too many failed sign-in attempts. Please try again in N minutes.".',
    access: 'public',
    request: named('LoginRequest', loginRequest),
    answer: envelope(info(named('LoginAnswer', loginResponse))),
    refusal: 'envelope',
    refusals: [429],
  },
  {
    method: 'post',
    path: '/api/security/two_factor_login/',
    tag: 'Security',
    summary: 'Second factor of a sign-in',
    description:
      'The interim token of login with exactly one of `code` (6 digits) and `recovery_code` (`abcde-fghij`; case, spaces and dashes don\'t matter). 400 for a wrong or used code; 409 "This sign-in has expired. Please enter your username and password again." or "Too many wrong codes. Please sign in again." (409, not 401: the person has no session yet); 429 when the account is locked.',
    access: 'public',
    request: named('TwoFactorLoginRequest', twoFactorLoginRequest),
    answer: envelope(info(session)),
    refusal: 'envelope',
    refusals: [409, 429],
  },
  {
    method: 'post',
    path: '/api/security/validate_email/',
    tag: 'Security',
    summary: 'Verify an email before signup',
    description:
      '`{type:"request", email}` → "A verification code has been sent to {email}" (409 "An account with this email already exists.", 429 for the code limits, 503 when the mail cannot be sent). `{type:"verify", email, code}` → "Email has been verified successfully" (400 for a wrong, expired or exhausted code).',
    access: 'public',
    request: named('ValidateEmailRequest', validateEmailRequest),
    answer: envelope(info(message)),
    refusal: 'envelope',
    refusals: [409, 429],
  },
  {
    method: 'post',
    path: '/api/security/register/',
    tag: 'Security',
    summary: 'Create an account',
    description:
      'Creates the account on a freshly verified email and signs it in. 400 for the field rules ("Username must be at least 3 characters", "confirmPassword: Passwords do not match", …), 403 "Please verify your email address first.", 409 "An account with this email already exists." or "This username is already taken.".',
    access: 'public',
    request: named('RegisterRequest', registerRequest),
    answer: envelope(info(session)),
    refusal: 'envelope',
    refusals: [403, 409, 429],
  },
  {
    method: 'post',
    path: '/api/security/reset_password/',
    tag: 'Security',
    summary: 'Reset a forgotten password',
    description:
      '`{type:"request", email}` → "If an account exists for {email}, a password reset code has been sent to it." (the same for every address). `{type:"reset", email, code, password, confirmPassword}` → "Password reset successful"; every session of the account ends. 429 for the code limits.',
    access: 'public',
    request: named('ResetPasswordRequest', resetPasswordRequest),
    answer: envelope(info(message)),
    refusal: 'envelope',
    refusals: [429],
  },
  {
    method: 'post',
    path: '/api/security/logout/',
    tag: 'Security',
    summary: 'Sign out',
    description: '→ "You have been logged out.". Only this session ends.',
    access: 'session',
    request: named('LogoutRequest', logoutRequest),
    answer: envelope(info(message)),
    refusal: 'envelope',
    refusals: [429],
  },
  {
    method: 'post',
    path: '/api/security/two_factor/',
    tag: 'Security',
    summary: 'Two-factor authentication',
    description:
      '`status` → `{enabled, recovery_codes_left}`. `setup` → `{secret, otpauth_url}`, a pending secret (409 when already on). `enable` → the message and 10 recovery codes, shown only in this answer. `disable` → "Two-factor authentication is now off." (an authenticator or a recovery code). `recovery_codes` → a new set. Every change asks for the password again: 400 "The password is not correct.", counted towards the sign-in lockout (429).',
    access: 'session',
    request: named('TwoFactorRequest', twoFactorRequest),
    answer: envelope(
      info(named('TwoFactorStatus', twoFactorStatusResponse), 'status'),
      info(named('TwoFactorSetup', twoFactorSetupResponse), 'setup'),
      info(named('RecoveryCodes', recoveryCodesResponse), 'enable', 'recovery_codes'),
      info(message, 'disable'),
    ),
    refusal: 'envelope',
    refusals: [409, 429],
  },
  {
    method: 'post',
    path: '/api/security/sessions/',
    tag: 'Account protections',
    summary: 'Sign-in history',
    description:
      '`list` → the newest 20 sign-ins of the account, newest first; `current` marks the calling session, `active` is false once it ended. `sign_out_others` → `{message, signed_out}`: every other live session ends, the calling one stays.',
    access: 'session',
    request: named('SessionsRequest', sessionsRequest),
    answer: envelope(info(named('SignInHistory', signInHistory), 'list'), info(named('SignOutOthers', signOutOthersResponse), 'sign_out_others')),
    refusal: 'envelope',
    refusals: [429],
  },
  {
    method: 'post',
    path: '/api/security/anti_phishing/',
    tag: 'Account protections',
    summary: 'Anti-phishing code',
    description:
      'The code printed in every mail to the account. Every type answers `{anti_phishing_code}` (null: none). `set` takes 4–20 letters, digits, spaces, `-` and `_`, and the password; `clear` takes the password.',
    access: 'session',
    request: named('AntiPhishingRequest', antiPhishingRequest),
    answer: envelope(info(named('AntiPhishingStatus', antiPhishingStatus))),
    refusal: 'envelope',
    refusals: [429],
  },
  {
    method: 'post',
    path: '/api/security/withdrawal_allowlist/',
    tag: 'Account protections',
    summary: 'Withdrawal allowlist',
    description:
      'Every type answers `{enabled, enforced_until, addresses}`. `enable` and `remove` apply at once; `disable` and `add` ask for the password and widen where coins may go only after 24 hours. 404 "This address is not on your withdrawal allowlist."; 409 when already off, already listed, or at 50 addresses.',
    access: 'session',
    request: named('AllowlistRequest', allowlistRequest),
    answer: envelope(info(named('AllowlistStatus', allowlistStatus))),
    refusal: 'envelope',
    refusals: [404, 409, 429],
  },
  {
    method: 'post',
    path: '/api/security/confirmation/',
    tag: 'Security',
    summary: 'Release confirmation',
    description:
      '`status` → `{proof}`: what a `release_coin` by this session must carry now, `"password"`, `"code"` (an authenticator code, two-factor on) or null while the session\'s 10-minute confirmation window is open (a proof given with a release in the last 10 minutes).',
    access: 'session',
    request: named('ConfirmationRequest', confirmationRequest),
    answer: envelope(info(named('ConfirmationStatus', confirmationStatus))),
    refusal: 'envelope',
    refusals: [429],
  },

  // ---- User ------------------------------------------------------------------------------------------------
  {
    method: 'post',
    path: '/api/user/overview/',
    tag: 'User',
    summary: 'Dashboard figures',
    description:
      '`total_balance` is the USD value of everything the trader holds, escrow included, at current prices, to 2 places; `open_chats` counts pending trades; `recent_trades` holds the newest 5.',
    access: 'session',
    request: { ...empty, optional: true },
    answer: envelope(info(named('Overview', overview))),
    refusal: 'envelope',
    refusals: [],
  },
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
