import { z } from 'zod/mini';
import { deviceApiErrorBody, INTEREST_MAX_LENGTH } from '../../../packages/push-service/index.ts';
import { named, type Named, type RefusalShape } from '../infra/http/call.ts';

/** What the OpenAPI document says of every call alike: the statuses, the refusals of each kind, the path parameters. */

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

const triggerApiError = z.object({ error: z.string() });

/** The refusal bodies of the device API (what the Beams SDK reads) and of the trigger API (what the `pusher` SDK reads). */
export const REFUSAL_SCHEMAS: Readonly<Record<Exclude<RefusalShape, 'envelope'>, Named>> = {
  'device-api': named('DeviceApiError', deviceApiErrorBody),
  'trigger-api': named('TriggerApiError', triggerApiError),
};
