/**
 * The public entry of the Beams-compatible push service (packages/push-service/README.md): the wire format of
 * the Beams web SDK's device tokens and of a Beams `web` publish on its way to a browser, and the delivery
 * worker that turns queued publishes into Web Push messages (or hands them to hosted Beams) over a store the
 * host provides.
 */
export { pushWorker, backoffMs, LEASE_MS, MAX_ATTEMPTS, SEND_TIMEOUT_MS, UNBOUND_DEVICE_LIFETIME_MS, PURGE_INTERVAL_MS } from './worker.ts';
export type { PushDelivery, PushLog, PushRoundReport, PushWorker, PushWorkerOptions, VapidKeys } from './worker.ts';
export type { BeamsWeb, ClaimedDelivery, ClaimedPublish, PushStore, PushUrgency } from './store.ts';
export { absoluteLink, MAX_PAYLOAD_BYTES, MAX_TTL_SECONDS, pushPayload, ttlOf, withAbsoluteLink, type PushPayload } from './payload.ts';
export {
  canonicalEndpoint,
  ENDPOINT_MAX_LENGTH,
  isAllowedEndpoint,
  isSubscriptionProblem,
  parseDeviceToken,
  type PushSubscriptionParts,
  type SubscriptionProblem,
} from './subscription.ts';
