/**
 * The instance id of the built-in Beams-compatible device API. The web app's SDK keys its IndexedDB state
 * by it (`beams-peerex`), so it differs from any hosted Beams instance id and a switch between the two
 * never sends a stale device id here (docs/pusher-and-beams.md "Hosted Beams and the built-in service").
 */
export const BUILT_IN_PUSH_INSTANCE = 'peerex';

/** Where the built-in device API and reporting API live on the product's own origin (packages/push-service/device-api.ts). */
export { DEVICE_API_BASE_PATH as PUSH_BASE_PATH } from '../../../packages/push-service/index.ts';

/** The issuer Beams puts in its tokens, and the one the device API checks (docs/pusher-and-beams.md "Beams tokens"). */
export const beamsIssuer = (instanceId: string) => `https://${instanceId}.pushnotifications.pusher.com`;
