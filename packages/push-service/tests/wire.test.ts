import { describe, expect, it } from 'vitest';
import {
  absoluteLink,
  MAX_PAYLOAD_BYTES,
  isAllowedEndpoint,
  pushPayload,
  pushWorker,
  type BeamsWeb,
  type ClaimedPublish,
  type PushStore,
} from '../index.ts';

describe('push endpoint allow-list', () => {
  it('lets PUSH_ALLOWED_HOSTS name a host with its port, and only that port (443 when none is given)', () => {
    expect(isAllowedEndpoint('https://push.internal/x', ['push.internal'])).toBe(true);
    expect(isAllowedEndpoint('https://push.internal:8443/x', ['push.internal'])).toBe(false);
    expect(isAllowedEndpoint('https://push.internal:8443/x', ['push.internal:8443'])).toBe(true);
    expect(isAllowedEndpoint('https://10.0.0.5:8443/x', ['10.0.0.5:8443'])).toBe(true);
    expect(isAllowedEndpoint('https://10.0.0.5/x', ['10.0.0.5:8443'])).toBe(false);
    expect(isAllowedEndpoint('https://fcm.googleapis.com:443/fcm/send/x', [])).toBe(true);
    expect(isAllowedEndpoint('https://FCM.googleapis.com/fcm/send/x', [])).toBe(true);
  });
});

describe('deep links in pushes', () => {
  const PUBLIC = 'https://peerex.example';
  it('puts a path of the web app on PUBLIC_URL', () => {
    expect(absoluteLink('/chat?channel=abc', PUBLIC)).toBe('https://peerex.example/chat?channel=abc');
    expect(absoluteLink('/wallets/transactions', `${PUBLIC}:8443`)).toBe('https://peerex.example:8443/wallets/transactions');
  });

  it('never turns a "path" into another host: those link to the home page', () => {
    for (const sneaky of ['//evil.example/x', '/\\evil.example/x', '/\\/evil.example', '/\t/evil.example']) {
      expect(absoluteLink(sneaky, PUBLIC)).toBe('https://peerex.example/');
    }
  });
});

describe('the payload of a publish', () => {
  const metadata = { instanceId: 'inst', publishId: 'publish-1', publicUrl: 'https://peerex.example' };

  it('carries the notification with its link made absolute, and data.pusher, without which the Beams service worker shows nothing', () => {
    const payload = pushPayload({ notification: { title: 'T', body: 'B', deep_link: '/chat' }, data: { kind: 'x' } }, metadata);
    expect(payload).toEqual({
      notification: { title: 'T', body: 'B', deep_link: 'https://peerex.example/chat' },
      data: { kind: 'x', pusher: { instanceId: 'inst', publishId: 'publish-1', hasDisplayableContent: true, hasData: true } },
    });
  });

  it('cuts a body too long for a push message with an ellipsis, and gives up when the data alone is too big', () => {
    const long = pushPayload({ notification: { title: 'T', body: 'é'.repeat(5000) } }, metadata);
    expect(Buffer.byteLength(JSON.stringify(long), 'utf8')).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
    expect(long?.notification?.body?.endsWith('…')).toBe(true);
    expect(pushPayload({ notification: { title: 'T', body: 'B' }, data: { blob: 'x'.repeat(MAX_PAYLOAD_BYTES) } }, metadata)).toBeUndefined();
  });
});

/** A store in memory holding publishes, recording what the worker asks of it. */
function memoryStore(publishes: ClaimedPublish[]) {
  const calls: string[] = [];
  const store: PushStore = {
    claimPublishes: async () => publishes.splice(0),
    expandPublish: async (publish, delivery) => {
      calls.push(`expand ${publish.id} ttl ${delivery.ttlSeconds} ${delivery.urgency}`);
      return 0;
    },
    deletePublish: async (id) => calls.push(`delete publish ${id}`),
    retryPublishAt: async (id) => calls.push(`retry publish ${id}`),
    claimDeliveries: async () => [],
    deleteDelivery: async (id) => calls.push(`delete delivery ${id}`),
    retryDeliveryAt: async (id) => calls.push(`retry delivery ${id}`),
    deleteDevice: async (id) => calls.push(`delete device ${id}`),
    purgeUnboundDevices: async () => 0,
    anythingDue: async () => publishes.length > 0,
  };
  return { store, calls };
}

const publishOf = (id: string, web: BeamsWeb): ClaimedPublish => ({ id, publish_id: `publish-${id}`, users: ['alice'], interests: [], web, urgency: 'normal', attempts: 1 });
const silent = { info() {}, warn() {}, error() {} };
const vapid = { publicKey: 'unused', privateKey: 'unused', subject: 'mailto:ops@peerex.example' };

describe('the delivery worker over a store', () => {
  it('expands a publish into deliveries with its time to live, and drops one whose data cannot fit a push message', async () => {
    const { store, calls } = memoryStore([
      publishOf('1', { notification: { title: 'T', body: 'B' }, time_to_live: 60 }),
      publishOf('2', { data: { blob: 'x'.repeat(MAX_PAYLOAD_BYTES) } }),
    ]);
    const worker = pushWorker({
      store,
      now: () => new Date('2026-01-01T00:00:00Z'),
      log: silent,
      publicUrl: 'https://peerex.example',
      delivery: { kind: 'built-in', instanceId: 'inst', vapid, agent: undefined },
    });
    const report = await worker.round();
    expect(report).toMatchObject({ published: 1, dropped: 1, delivered: 0 });
    expect([...calls].sort()).toEqual(['delete publish 2', 'expand 1 ttl 60 normal']);
    expect(await worker.anythingDue()).toBe(false);
  });
});
