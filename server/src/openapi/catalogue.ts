import { z } from 'zod/mini';
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
import { HTTP_API_LIMITS, MAX_EVENT_DATA_BYTES, MAX_EVENT_NAME_LENGTH } from '../../../packages/realtime/index.ts';
import { deviceApiCalls, deviceApiErrorBody, INTEREST_MAX_LENGTH } from '../../../packages/push-service/index.ts';

/**
 * Every call the server registers, as an integrator needs to know it:
 * one entry per method and path, with the contract's own zod schemas. server/src/openapi/document.ts turns this
 * into the OpenAPI document served at GET /api/openapi.json; tests/server/openapi.test.ts checks it against the
 * routes the app registers, so a call added to the server without an entry here fails the suite.
 * The wording of the descriptions is docs/api.md's.
 */

export type Access =
  /** No credentials. */
  | 'public'
  /** The session token of login, two_factor_login or register. */
  | 'session'
  /** A moderator's session token. */
  | 'moderator'
  /** The websocket token (the session token works too), as pusher-js sends it. */
  | 'websocket'
  /** The Beams-compatible device API: the device id in the path is the credential. */
  | 'device'
  /** Pusher's HTTP API: a request signed with the app secret. */
  | 'signed';

export type Method = 'get' | 'post' | 'put' | 'delete';

/** A schema and its name under `components/schemas`. */
export interface Named {
  name: string;
  schema: z.core.$ZodType;
}

/** One possible `info` of a success, and the body `type`s that answer it (none: every body). */
export interface Info extends Named {
  when?: string[];
}

export type Answer =
  /** `{"success": true, "info": …}`, `info` one of these. */
  | { kind: 'envelope'; infos: Info[]; headers?: Record<string, string> }
  /** A JSON body that is not the envelope (what pusher-js, the Beams SDK or the `pusher` SDK expects). */
  | { kind: 'json'; body: Named; status?: number }
  /** No body at all. */
  | { kind: 'empty'; status: number }
  /** Not JSON: a page or a script. */
  | { kind: 'text'; contentType: string; what: string };

/** What a refusal looks like: the product's envelope, or the shape the Beams SDK or the `pusher` SDK reads. */
export type RefusalShape = 'envelope' | 'device-api' | 'trigger-api';

export interface Parameter {
  description: string;
  required?: boolean;
  schema?: z.core.$ZodType;
}

export interface Call {
  method: Method;
  /** As a caller writes it, OpenAPI style (`{channel}`), with its trailing slash where the call has one. */
  path: string;
  tag: string;
  summary: string;
  description: string;
  access: Access;
  /** A bearer token besides what `access` implies: the Beams token that binds a device to its user. */
  credential?: 'beamsToken';
  /** Served only outside production, on a loopback HOST, to requests from this machine (docs/api.md "Development helpers"). */
  developmentOnly?: boolean;
  request?: Named & { contentTypes?: string[]; optional?: boolean };
  query?: Record<string, Parameter>;
  /** Descriptions of this call's path parameters where the shared ones (PATH_PARAMETERS) do not fit. */
  params?: Record<string, string>;
  answer: Answer;
  refusal: RefusalShape;
  /** The statuses it refuses with besides those every call of its kind has (BASE_REFUSALS). */
  refusals: number[];
}

/** What each status means (docs/api.md "Status codes"). */
export const STATUS_MEANINGS: Readonly<Record<number, string>> = {
  400: 'The request is wrong: malformed JSON, a body that fails its schema (the sentence names the field), U+0000 or a lone surrogate in any text, a wrong password or code, an unknown coin, an amount out of range.',
  401: 'No live session: "Session expired". No token, or an unknown, revoked or idle token, or an interim two-factor token sent to a product call.',
  403: 'The caller may not do this; or, on a server listening on a loopback HOST, the request names a Host it does not answer to ("This server does not answer requests for this host name.").',
  404: 'No such thing, as far as the caller may know (unknown or someone else\'s).',
  409: 'The state does not allow it now (a race lost, a trade no longer pending, a sign-in attempt that is over).',
  413: 'The body is too large.',
  429: 'Too many, too soon.',
  500: 'A bug: "Something went wrong on our side. Please try again." (details go to the log only).',
  503: 'A service the call needs is down, or this process is shutting down ("This server is restarting. Please try again in a moment.").',
};

/** Refusals every call of a kind can answer, whatever it does. */
export const BASE_REFUSALS: Readonly<Record<RefusalShape, readonly number[]>> = {
  envelope: [400, 500, 503],
  'device-api': [400, 404, 429, 500],
  'trigger-api': [400, 401, 404, 500],
};

/** Path parameters, by name, unless a call says otherwise. */
export const PATH_PARAMETERS: Readonly<Record<string, string>> = {
  channel: "The trade's conversation `channel` (market/chat/ `conversations`, the `X-Trade-Channel` header of `open`).",
  instanceId: 'The Beams instance id: `peerex` for the built-in device API (GET /api/config `push.instance_id`).',
  deviceId: 'The id `POST /devices/web` answered (`web-<uuid>`).',
  interest: `An interest name: A–Z a–z 0–9 _ - = @ , . and 1–${INTEREST_MAX_LENGTH} characters.`,
  appId: 'The realtime app id (`PUSHER_APP_ID`, or the built-in default).',
};

// ---- Shapes the push device API and the trigger API answer (their routes parse and answer by hand) --------------

const triggerApiError = z.object({ error: z.string() });
const channelAttributes = z.object({ subscription_count: z.optional(z.int()), user_count: z.optional(z.int()) });
/** Pusher's event (docs/pusher-and-beams.md "Endpoints and limits"). */
const pusherEvent = z.object({
  name: z.string().check(z.minLength(1), z.maxLength(MAX_EVENT_NAME_LENGTH)),
  data: z.string().check(z.describe(`The event's JSON text, forwarded unchanged; at most ${MAX_EVENT_DATA_BYTES} bytes (413 when larger).`)),
  channels: z.optional(z.array(z.string()).check(z.minLength(1), z.maxLength(HTTP_API_LIMITS.channelsPerEvent))),
  channel: z.optional(z.string().check(z.describe('One channel, instead of `channels`.'))),
  socket_id: z.optional(z.string().check(z.describe('This connection does not receive the event.'))),
  info: z.optional(z.string().check(z.describe('A comma list of `subscription_count`, `user_count`.'))),
});
const signedQuery: Record<string, Parameter> = {
  auth_key: { description: 'The app key.', required: true },
  auth_timestamp: { description: 'Unix seconds; within 600 s of the server clock.', required: true },
  auth_version: { description: '`1.0`.', required: true },
  body_md5: { description: 'Hex MD5 of the exact raw body, when there is one.' },
};

// ---- Named schemas used by several calls ---------------------------------------------------------------------

const named = (name: string, schema: z.core.$ZodType): Named => ({ name, schema });
const message = named('Message', messageResponse);
const session = named('Session', sessionResponse);
const empty = named('EmptyBody', emptyBody);
const chatMessageSchema = named('ChatMessage', chatMessage);
const pusherEventSchema = named('PusherEvent', pusherEvent);
const healthInfo = named('Health', healthResponse);

const info = (item: Named, ...when: string[]): Info => ({ ...item, ...(when.length ? { when } : {}) });
const envelope = (...infos: Info[]): Answer => ({ kind: 'envelope', infos });
const json = (name: string, schema: z.core.$ZodType): Answer => ({ kind: 'json', body: named(name, schema) });

export const REFUSAL_SCHEMAS: Readonly<Record<Exclude<RefusalShape, 'envelope'>, Named>> = {
  'device-api': named('DeviceApiError', deviceApiErrorBody),
  'trigger-api': named('TriggerApiError', triggerApiError),
};

export const CATALOGUE: readonly Call[] = [
  // ---- System ----------------------------------------------------------------------------------------------
  {
    method: 'get',
    path: '/api/health',
    tag: 'System',
    summary: 'Health',
    description: 'Answers once the database is migrated and the server accepts calls; 503 "The database is not available." when the database does not respond. Also answers POST, like every other call.',
    access: 'public',
    answer: envelope(info(healthInfo)),
    refusal: 'envelope',
    refusals: [],
  },
  {
    method: 'post',
    path: '/api/health',
    tag: 'System',
    summary: 'Health (POST)',
    description: 'The same as GET /api/health.',
    access: 'public',
    request: { ...empty, optional: true },
    answer: envelope(info(healthInfo)),
    refusal: 'envelope',
    refusals: [],
  },
  {
    method: 'get',
    path: '/api/ready',
    tag: 'System',
    summary: 'Readiness',
    description:
      'For load balancers: 200 only while this process can serve calls, its database and (with `REDIS_URL`) Redis answering; 503 otherwise, and while it shuts down.',
    access: 'public',
    answer: envelope(info(named('Ready', readyResponse))),
    refusal: 'envelope',
    refusals: [],
  },
  {
    method: 'get',
    path: '/api/config',
    tag: 'System',
    summary: 'Browser configuration',
    description:
      'What the web app needs at boot, so one build serves every deployment. `ws_host`/`ws_port` null mean this page\'s origin (the built-in server); `cluster` is set only for hosted Pusher. `push.endpoint` is `PUBLIC_URL`\'s `/push`, the built-in Beams-compatible device API (null with hosted Beams); never taken from the request\'s Host or X-Forwarded-Host. `flow_atlas` says who may open `/flows` and whether pages post their charts\' live states.',
    access: 'public',
    answer: envelope(info(named('WebAppConfig', webAppConfig))),
    refusal: 'envelope',
    refusals: [],
  },
  {
    method: 'get',
    path: '/api/openapi.json',
    tag: 'System',
    summary: 'This OpenAPI document',
    description: 'The OpenAPI 3.1 document of every call, generated from the zod schemas in `contracts/` when the server starts.',
    access: 'public',
    answer: json('OpenApiDocument', z.looseObject({ openapi: z.string(), info: z.looseObject({ title: z.string(), version: z.string() }), paths: z.record(z.string(), z.unknown()) })),
    refusal: 'envelope',
    refusals: [],
  },
  {
    method: 'get',
    path: '/api/docs',
    tag: 'System',
    summary: 'API reference page',
    description: 'This document as a readable page (Scalar), served from the product itself: no CDN, no request to any other site.',
    access: 'public',
    answer: { kind: 'text', contentType: 'text/html', what: 'The page.' },
    refusal: 'envelope',
    refusals: [],
  },
  {
    method: 'get',
    path: '/api/docs/scalar.js',
    tag: 'System',
    summary: 'API reference page: Scalar',
    description: "The API reference page's script: Scalar's standalone browser bundle (`@scalar/api-reference`), as installed.",
    access: 'public',
    answer: { kind: 'text', contentType: 'text/javascript', what: 'The script.' },
    refusal: 'envelope',
    refusals: [],
  },
  {
    method: 'get',
    path: '/api/docs/init.js',
    tag: 'System',
    summary: 'API reference page: start-up',
    description: 'Starts Scalar on the API reference page with this document, without fonts, telemetry, proxy or API client (the page\'s Content-Security-Policy allows no inline script).',
    access: 'public',
    answer: { kind: 'text', contentType: 'text/javascript', what: 'The script.' },
    refusal: 'envelope',
    refusals: [],
  },

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
  {
    method: 'post',
    path: '/api/base/coins/',
    tag: 'Market',
    summary: 'Coins',
    description: 'Every coin with its networks and current USD price.',
    access: 'session',
    request: { ...empty, optional: true },
    answer: envelope(info(named('Coins', coinsResponse))),
    refusal: 'envelope',
    refusals: [],
  },

  // ---- Market ----------------------------------------------------------------------------------------------
  {
    method: 'post',
    path: '/api/market/offers/',
    tag: 'Market',
    summary: 'Offers',
    description:
      '`components` → the offer form\'s choices. `list` → `{offers, paginator}`: 12 live offers a page, newest first, filtered; each carries its counterparty conditions (`min_completed_trades`, `min_account_days`, `require_two_factor`; 0 / false: none) and `max_open_trades`. `get` (owner only) → the offer for the edit form. `create` publishes a new offer, or with `update:true` rewrites the caller\'s offer `id` → a sentence; the conditions are optional integers (a boolean for two-factor), `max_open_trades` 1–20, default 3. `toggle` pauses or resumes → `{is_active, message}`. 404 "This offer does not exist." for an unknown id or someone else\'s offer.',
    access: 'session',
    request: named('OffersRequest', offersRequest),
    answer: envelope(
      info(named('OfferComponents', offerComponents), 'components'),
      info(named('OfferList', offerList), 'list'),
      info(named('EditableOffer', editableOffer), 'get'),
      info(message, 'create'),
      info(named('OfferToggle', offerToggleResponse), 'toggle'),
    ),
    refusal: 'envelope',
    refusals: [404],
  },
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
    method: 'post',
    path: '/api/realtime/auth/',
    tag: 'Realtime',
    summary: 'Channel authorization (pusher-js)',
    description:
      'Form-encoded as pusher-js sends it, or JSON, with `Authorization: Bearer <websocket_token>` (the session token works too) → `{"auth":"key:signature","channel_data":"{\\"session\\":\\"<id>\\"}"}`, not enveloped: pusher-js reads it as it is and sends channel_data back with the subscription. The signature covers `socket_id:channel:channel_data`, so the built-in server ties the socket to that session and closes it (4009) when the session ends; with an external server (`PUSHER_HOST`, `PUSHER_CLUSTER`) the answer is `{"auth"}` alone. 401 "Session expired" without a live session; 403 "You may not listen on this channel."; at most 300 a minute per address (429).',
    access: 'websocket',
    request: { ...named('RealtimeAuthRequest', realtimeAuthRequest), contentTypes: ['application/x-www-form-urlencoded', 'application/json'] },
    answer: json('RealtimeAuth', realtimeAuthResponse),
    refusal: 'envelope',
    refusals: [403, 429],
  },
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
  {
    method: 'post',
    path: '/api/dev/outbox/',
    tag: 'Development helpers',
    summary: 'Mail outbox',
    description:
      'The mails the server would have sent, newest first, at most 50: read signup and reset codes without a mail server. Exists only when `SMTP_URL` is unset, `NODE_ENV` is not production and `HOST` is a loopback address; answers only requests from this machine without proxy headers (else 404 "There is no such API call.").',
    access: 'public',
    developmentOnly: true,
    request: { ...empty, optional: true },
    answer: envelope(info(named('DevOutbox', devOutboxResponse))),
    refusal: 'envelope',
    refusals: [404],
  },
  {
    method: 'post',
    path: '/api/dev/chain/',
    tag: 'Development helpers',
    summary: 'Simulated chain',
    description:
      'Drives `CHAIN_SOURCE=simulated`, under the same conditions as the outbox. `deposit` → `{txid}`: a transfer to an address, pending in its owner\'s history at once. `mine` (1–100 blocks) → `{mined}`: deposits with 1 confirmation are credited and broadcast withdrawals confirmed.',
    access: 'public',
    developmentOnly: true,
    request: named('DevChainRequest', devChainRequest),
    answer: envelope(info(named('DevChainDeposit', devChainDeposit), 'deposit'), info(named('DevChainMine', devChainMine), 'mine')),
    refusal: 'envelope',
    refusals: [404],
  },

  // ---- Beams-compatible device API (docs/pusher-and-beams.md "Device calls"), declared with its routes ----------
  ...deviceApiCalls,

  // ---- Pusher's HTTP trigger API (docs/pusher-and-beams.md "HTTP trigger API") ------------------------------------
  {
    method: 'post',
    path: '/apps/{appId}/events',
    tag: 'Realtime trigger API (Pusher)',
    summary: 'Trigger an event',
    description:
      'What the `pusher` Node SDK calls to publish into the built-in server. Each subscriber of each channel gets `{event, channel, data}`, except `socket_id`. Answers `{}`, or the channels\' attributes when `info` is given. 413 for data over 10 KB, or a body larger than one such event needs. The key, `auth_version`, timestamp and signature are checked before the body is read; `body_md5` after.',
    access: 'signed',
    query: signedQuery,
    request: pusherEventSchema,
    answer: json('TriggerAnswer', z.object({ channels: z.optional(z.record(z.string(), channelAttributes)) })),
    refusal: 'trigger-api',
    refusals: [413],
  },
  {
    method: 'post',
    path: '/apps/{appId}/batch_events',
    tag: 'Realtime trigger API (Pusher)',
    summary: 'Trigger several events',
    description: `At most ${HTTP_API_LIMITS.eventsPerBatch} events; every event is checked before any is sent, so a batch is refused whole.`,
    access: 'signed',
    query: signedQuery,
    request: named('PusherBatch', z.object({ batch: z.array(pusherEvent).check(z.maxLength(HTTP_API_LIMITS.eventsPerBatch)) })),
    answer: json('BatchTriggerAnswer', z.object({ batch: z.optional(z.array(channelAttributes)) })),
    refusal: 'trigger-api',
    refusals: [413],
  },
  {
    method: 'get',
    path: '/apps/{appId}/channels',
    tag: 'Realtime trigger API (Pusher)',
    summary: 'Occupied channels',
    description: '`info=user_count` only with `filter_by_prefix=presence-`.',
    access: 'signed',
    query: { ...signedQuery, filter_by_prefix: { description: 'Only channels whose name starts with it.' }, info: { description: '`subscription_count`, `user_count`.' } },
    answer: json('ChannelList', z.object({ channels: z.record(z.string(), channelAttributes) })),
    refusal: 'trigger-api',
    refusals: [],
  },
  {
    method: 'get',
    path: '/apps/{appId}/channels/{channel}',
    tag: 'Realtime trigger API (Pusher)',
    summary: 'One channel',
    description: '`user_count` for presence channels only.',
    access: 'signed',
    params: { channel: 'A channel name.' },
    query: { ...signedQuery, info: { description: '`subscription_count`, `user_count`.' } },
    answer: json('ChannelState', z.object({ occupied: z.boolean(), subscription_count: z.optional(z.int()), user_count: z.optional(z.int()) })),
    refusal: 'trigger-api',
    refusals: [],
  },
  {
    method: 'get',
    path: '/apps/{appId}/channels/{channel}/users',
    tag: 'Realtime trigger API (Pusher)',
    summary: 'Users of a presence channel',
    description: 'Presence channels only (400 for any other).',
    access: 'signed',
    params: { channel: 'A presence channel name (`presence-…`).' },
    query: signedQuery,
    answer: json('ChannelUsers', z.object({ users: z.array(z.object({ id: z.string() })) })),
    refusal: 'trigger-api',
    refusals: [],
  },
];
