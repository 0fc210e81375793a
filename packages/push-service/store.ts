/**
 * What the delivery worker (PushStore) and the device API (PushDeviceStore) need from where publishes, devices
 * and deliveries are kept. The host implements them (Peerex: server/src/push/push.repository.ts over the push_*
 * tables of migration 017); the worker's claims are leases, so several processes may run rounds against one
 * store and a row whose process died is taken by the next round.
 */

export type PushUrgency = 'very-low' | 'low' | 'normal' | 'high';

/** A Beams `web` publish body. */
export interface BeamsWeb {
  time_to_live?: number;
  notification?: { title?: string; body?: string; icon?: string; deep_link?: string; hide_notification_if_site_has_focus?: boolean };
  data?: Record<string, unknown>;
}

/** A publish of the outbox, claimed by one worker round. */
export interface ClaimedPublish {
  id: string;
  publish_id: string;
  users: string[];
  interests: string[];
  web: BeamsWeb;
  urgency: PushUrgency;
  attempts: number;
}

/** A delivery claimed for sending, with the subscription it goes to. */
export interface ClaimedDelivery {
  id: string;
  device_id: string;
  payload: unknown;
  ttl_seconds: number;
  urgency: PushUrgency;
  attempts: number;
  endpoint: string;
  p256dh: string;
  auth: string;
}

export interface PushStore {
  /** Claims up to `limit` due publishes for `leaseMs` (their attempts counted). */
  claimPublishes(now: Date, leaseMs: number, limit: number): Promise<ClaimedPublish[]>;
  /** Replaces a claimed publish by one delivery per device of its users or interests, at once; answers how many. */
  expandPublish(
    publish: { id: string; instanceId: string; users: readonly string[]; interests: readonly string[] },
    delivery: { payload: unknown; ttlSeconds: number; urgency: PushUrgency; at: Date },
  ): Promise<number>;
  deletePublish(id: string): Promise<unknown>;
  retryPublishAt(id: string, at: Date): Promise<unknown>;
  /** Claims up to `limit` due deliveries for `leaseMs` (their attempts counted). */
  claimDeliveries(now: Date, leaseMs: number, limit: number): Promise<ClaimedDelivery[]>;
  deleteDelivery(id: string): Promise<unknown>;
  retryDeliveryAt(id: string, at: Date, error: string): Promise<unknown>;
  /** Forgets a device whose push service said its subscription is gone. */
  deleteDevice(id: string): Promise<unknown>;
  /** Forgets devices bound to nobody and unseen since `before`, at most `limit`; answers how many. */
  purgeUnboundDevices(before: Date, limit: number): Promise<number>;
  /** Whether a publish or a delivery is due now. */
  anythingDue(now: Date): Promise<boolean>;
}

/** A browser registering with the device API: its Beams token and the subscription parsed from it. */
export interface NewPushDevice {
  id: string;
  instanceId: string;
  token: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  sdkVersion: string | null;
  userAgent: string | null;
  at: Date;
}

/** What a Beams token says once the host checked it (signature, issuer, lifetime): whose, since when, for which session. */
export interface BeamsTokenClaims {
  username: string;
  issuedAt: Date;
  /** The host's session the token was handed to: a device bound with it goes when that session ends. */
  sessionId: string;
}

/**
 * How binding a device to a token's user went: `bound`; `refused`, the host binds nothing with this token (no
 * such user, or credentials changed since it was issued); `ended`, the session it was issued to is over;
 * `taken`, the device is another user's.
 */
export type BindOutcome = 'bound' | 'refused' | 'ended' | 'taken';

/**
 * What the device API (device-api.ts) needs from where devices and their interests are kept. The host implements
 * it (Peerex: server/src/push/push.repository.ts over push_devices and push_device_interests). Device ids are
 * the API's own (`web-<uuid>`); a device is known only within its instance.
 */
export interface PushDeviceStore {
  createDevice(device: NewPushDevice): Promise<unknown>;
  /** The device, marked seen at `at` (a device nobody binds or calls is purged, worker.ts), or undefined. */
  touchDevice(instanceId: string, id: string, at: Date): Promise<{ id: string } | undefined>;
  /** Forgets the device with its interests. */
  deleteDevice(id: string): Promise<unknown>;
  /** Null keeps what is stored. */
  setMetadata(id: string, sdkVersion: string | null, userAgent: string | null): Promise<unknown>;
  addInterest(id: string, interest: string): Promise<unknown>;
  removeInterest(id: string, interest: string): Promise<unknown>;
  /** Up to `limit` interests in name order, after `after` (the previous page's last). */
  interestsPage(id: string, limit: number, after: string | null): Promise<string[]>;
  interestCount(id: string): Promise<number>;
  /** Replaces every interest of the device at once. */
  setInterests(id: string, interests: readonly string[]): Promise<unknown>;
  /** Binds the device to the user of a checked Beams token, unless the host refuses (BindOutcome). */
  bindUser(id: string, claims: BeamsTokenClaims, at: Date): Promise<BindOutcome>;
}
