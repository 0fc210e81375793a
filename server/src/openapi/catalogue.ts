import { z } from 'zod/mini';
import { envelope, info, json, named, type CallDocumentation, type Parameter } from '../infra/http/call.ts';
import { allowlistRequest, allowlistStatus, antiPhishingRequest, antiPhishingStatus, sessionsRequest, signInHistory, signOutOthersResponse } from '../../../contracts/account-protections.ts';
import { chatMessage, chatMessages, chatRequest, realtimeAuthRequest, realtimeAuthResponse, typingResponse, webAppConfig } from '../../../contracts/chat.ts';
import { emptyBody } from '../../../contracts/common.ts';
import { coinsResponse, editableOffer, offerComponents, offerList, offersRequest, offerToggleResponse } from '../../../contracts/market.ts';
import { disputeDetail, disputeList, moderationRequest } from '../../../contracts/moderation.ts';
import { beamsTokenResponse, INTEREST_MAX_LENGTH, notificationList, notificationsRequest, unreadCount } from '../../../contracts/notifications.ts';
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
import { deviceInterestsBody, deviceMetadataBody, deviceRegistration } from '../push/device-api.routes.ts';

/**
 * Every call the server registers, as an integrator needs to know it:
 * one entry per method and path, with the contract's own zod schemas. server/src/openapi/document.ts turns this
 * into the OpenAPI document served at GET /api/openapi.json; tests/server/openapi.test.ts checks it against the
 * routes the app registers, so a call added to the server without an entry here fails the suite.
 * The wording of the descriptions is docs/api.md's.
 */

// ---- Shapes the push device API and the trigger API answer (their routes parse and answer by hand) --------------

const nothing = z.object({});
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

const message = named('Message', messageResponse);
const session = named('Session', sessionResponse);
const empty = named('EmptyBody', emptyBody);
const nothingAnswer = named('Empty', nothing);
const chatMessageSchema = named('ChatMessage', chatMessage);
const pusherEventSchema = named('PusherEvent', pusherEvent);
const healthInfo = named('Health', healthResponse);


const DEVICE = '/push/device_api/v1/instances/{instanceId}';

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

  // ---- Beams-compatible device API (docs/pusher-and-beams.md "Device calls") --------------------------------------
  {
    method: 'get',
    path: `${DEVICE}/web-vapid-public-key`,
    tag: 'Push device API (Beams)',
    summary: 'VAPID public key',
    description: 'The base64url P-256 point browsers subscribe with.',
    access: 'device',
    answer: json('VapidPublicKey', z.object({ vapidPublicKey: z.string() })),
    refusal: 'device-api',
    refusals: [],
  },
  {
    method: 'post',
    path: `${DEVICE}/devices/web`,
    tag: 'Push device API (Beams)',
    summary: 'Register a browser',
    description:
      '`token` is base64 of the browser\'s `PushSubscription` JSON; its endpoint must be `https://` on a browser push service (FCM, Mozilla autopush, Apple, Windows) or a host listed in `PUSH_ALLOWED_HOSTS`, and its keys a P-256 point and a 16-byte secret; anything else → 400. 30 new devices an hour per address.',
    access: 'device',
    request: named('DeviceRegistration', deviceRegistration),
    answer: json('DeviceId', z.object({ id: z.string() })),
    refusal: 'device-api',
    refusals: [413],
  },
  {
    method: 'delete',
    path: `${DEVICE}/devices/web/{deviceId}`,
    tag: 'Push device API (Beams)',
    summary: 'Forget a device',
    description: 'The SDK\'s `stop()`.',
    access: 'device',
    answer: { kind: 'json', body: nothingAnswer },
    refusal: 'device-api',
    refusals: [],
  },
  {
    method: 'put',
    path: `${DEVICE}/devices/web/{deviceId}/metadata`,
    tag: 'Push device API (Beams)',
    summary: "A device's metadata",
    description: 'The SDK version (kept cut to 32 characters).',
    access: 'device',
    request: named('DeviceMetadata', deviceMetadataBody),
    answer: { kind: 'json', body: nothingAnswer },
    refusal: 'device-api',
    refusals: [413],
  },
  {
    method: 'get',
    path: `${DEVICE}/devices/web/{deviceId}/interests`,
    tag: 'Push device API (Beams)',
    summary: "A device's interests",
    description: '`next_cursor` is null on the last page; pass it back as `cursor`.',
    access: 'device',
    query: {
      limit: { description: 'A page of 1–1000 (default 100).', schema: z.string() },
      cursor: { description: 'The `next_cursor` of the previous page.' },
    },
    answer: json('DeviceInterests', z.object({ interests: z.array(z.string()), responseMetadata: z.object({ next_cursor: z.nullable(z.string()) }) })),
    refusal: 'device-api',
    refusals: [],
  },
  {
    method: 'put',
    path: `${DEVICE}/devices/web/{deviceId}/interests`,
    tag: 'Push device API (Beams)',
    summary: "Set a device's interests",
    description: 'At most 5,000, duplicates removed; `[]` clears them.',
    access: 'device',
    request: named('DeviceInterestsBody', deviceInterestsBody),
    answer: { kind: 'json', body: nothingAnswer },
    refusal: 'device-api',
    refusals: [413],
  },
  {
    method: 'post',
    path: `${DEVICE}/devices/web/{deviceId}/interests/{interest}`,
    tag: 'Push device API (Beams)',
    summary: 'Add an interest',
    description: 'The SDK\'s `addDeviceInterest`.',
    access: 'device',
    answer: { kind: 'json', body: nothingAnswer },
    refusal: 'device-api',
    refusals: [],
  },
  {
    method: 'delete',
    path: `${DEVICE}/devices/web/{deviceId}/interests/{interest}`,
    tag: 'Push device API (Beams)',
    summary: 'Remove an interest',
    description: 'The SDK\'s `removeDeviceInterest`.',
    access: 'device',
    answer: { kind: 'json', body: nothingAnswer },
    refusal: 'device-api',
    refusals: [],
  },
  {
    method: 'put',
    path: `${DEVICE}/devices/web/{deviceId}/user`,
    tag: 'Push device API (Beams)',
    summary: 'Bind a device to its user',
    description:
      'With `Authorization: Bearer <beams JWT>` (GET /api/push/beams-auth/): the device now belongs to the JWT\'s user, and to its session (`sid`) until that session ends. A bad signature, an expired token, another issuer, an unknown user, a token issued before a password reset or two-factor change, or one whose session has ended (signed out, idle) → 401; a device bound to another user → 409.',
    access: 'device',
    credential: 'beamsToken',
    answer: { kind: 'json', body: nothingAnswer },
    refusal: 'device-api',
    refusals: [401, 409],
  },
  {
    method: 'post',
    path: '/push/reporting_api/v2/instances/{instanceId}/events',
    tag: 'Push device API (Beams)',
    summary: 'Delivery reports',
    description: "The service worker's delivery and open reports: 204; they are not kept.",
    access: 'device',
    request: { ...named('ReportingEvent', z.looseObject({})), optional: true },
    answer: { kind: 'empty', status: 204 },
    refusal: 'device-api',
    refusals: [413],
  },

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
