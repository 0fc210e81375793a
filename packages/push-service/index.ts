/**
 * The public entry of the Beams-compatible push service (packages/push-service/README.md): the device API the
 * Beams web SDK calls, the wire format of its device tokens and of a Beams `web` publish on its way to a browser,
 * and the delivery worker that turns queued publishes into Web Push messages (or hands them to hosted Beams),
 * over stores the host provides.
 */
export {
  createDeviceApi,
  DEVICE_API_BASE_PATH,
  DEVICE_API_CALLS_PER_MINUTE,
  DEVICE_BODY_LIMIT_BYTES,
  DEVICE_REGISTRATIONS_PER_HOUR,
  deviceApiCalls,
  DEVICE_API_TAG,
  deviceApiErrorBody,
  deviceInterestsBody,
  deviceMetadataBody,
  deviceRegistration,
  type DeviceApiCall,
  type DeviceApiLimit,
  type DeviceApiOptions,
  type NamedSchema,
} from './device-api.ts';
export { INTEREST_MAX_LENGTH, INTEREST_PATTERN, INTERESTS_PER_DEVICE } from './interests.ts';
export { pushWorker, backoffMs, LEASE_MS, MAX_ATTEMPTS, SEND_TIMEOUT_MS, UNBOUND_DEVICE_LIFETIME_MS, PURGE_INTERVAL_MS } from './worker.ts';
export type { PushDelivery, PushLog, PushRoundReport, PushWorker, PushWorkerOptions, VapidKeys } from './worker.ts';
export type {
  BeamsTokenClaims,
  BeamsWeb,
  BindOutcome,
  ClaimedDelivery,
  ClaimedPublish,
  NewPushDevice,
  PushDeviceStore,
  PushStore,
  PushUrgency,
} from './store.ts';
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
