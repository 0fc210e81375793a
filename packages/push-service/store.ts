/**
 * What the delivery worker needs from where publishes, devices and deliveries are kept. The host implements it
 * (Peerex: server/src/push/push.repository.ts over the push_* tables of migration 017); the claims are leases, so
 * several processes may run rounds against one store and a row whose process died is taken by the next round.
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
