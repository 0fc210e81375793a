/**
 * The public entry of the Pusher Channels protocol package (packages/realtime/README.md): what an application
 * imports to run its own realtime server or to publish through a hosted one. Nothing here knows Peerex: which
 * channels a user may join is the application's to decide (it signs the subscription, see protocol.ts
 * `channelAuthMatches`).
 */
export { createBuiltInRealtime, type BuiltInRealtime, type BuiltInRealtimeOptions, type RealtimeLog } from './server.ts';
export { createHostedRealtime, type HostedRealtimeOptions } from './hosted.ts';
export type { RealtimeApp, RealtimePublisher } from './publisher.ts';
export { HTTP_API_LIMITS, stringToSign, TRIGGER_API_CALLS, TRIGGER_API_TAG, type TriggerApiCall } from './http-api.ts';
export { channelKind, MAX_EVENT_DATA_BYTES, MAX_EVENT_NAME_LENGTH, type ChannelKind } from './protocol.ts';
