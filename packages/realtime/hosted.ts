import Pusher from 'pusher';
import type { RealtimeApp, RealtimePublisher } from './publisher.ts';

/**
 * Publishing through a hosted Pusher, or any Pusher-compatible server (soketi, another Peerex), with the
 * `pusher` SDK (the host configures it: Peerex from its `PUSHER_*` variables). No socket server runs in this process.
 */
export interface HostedRealtimeOptions {
  app: RealtimeApp;
  /** Hosted Pusher: the cluster (`eu`, `mt1`, …). Ignored when `host` is set. */
  cluster?: string;
  /** A self-hosted server's host; the scheme is https unless `useTLS` is false. */
  host?: string;
  port?: number;
  /** Default true. */
  useTLS?: boolean;
  /** Per request (default 10 s), so a hung server cannot hold a publish forever. */
  timeoutMs?: number;
  /** Only for `private-encrypted-` channels. */
  encryptionMasterKeyBase64?: string;
}

/** Pusher refuses an event sent to more channels than this. */
const CHANNELS_PER_TRIGGER = 100;

export function createHostedRealtime(options: HostedRealtimeOptions | Pusher): RealtimePublisher {
  const pusher = options instanceof Pusher ? options : new Pusher(sdkOptions(options));

  return {
    async trigger(channels, event, data, triggerOptions) {
      const list = typeof channels === 'string' ? [channels] : [...channels];
      const params = triggerOptions?.socketId ? { socket_id: triggerOptions.socketId } : undefined;
      // The SDK sends a string as it is and stringifies anything else: stringify here so that a string
      // arrives as a JSON string, exactly as the built-in server's trigger sends it.
      const json = JSON.stringify(data) ?? 'null';
      const plain = list.filter((channel) => !channel.startsWith('private-encrypted-'));
      const calls: Promise<unknown>[] = [];
      for (let i = 0; i < plain.length; i += CHANNELS_PER_TRIGGER) {
        calls.push(pusher.trigger(plain.slice(i, i + CHANNELS_PER_TRIGGER), event, json, params));
      }
      // The SDK encrypts (JSON of `data`) one channel per call; it must get the value itself.
      for (const channel of list) if (channel.startsWith('private-encrypted-')) calls.push(pusher.trigger(channel, event, data, params));
      await Promise.all(calls);
    },

    async occupied(channels) {
      const wanted = new Set(channels);
      if (wanted.size === 0) return new Set();
      const prefix = commonPrefix([...wanted]);
      const response = await pusher.get({ path: '/channels', params: prefix ? { filter_by_prefix: prefix } : {} });
      const body = (await response.json()) as { channels?: Record<string, unknown> };
      return new Set(Object.keys(body.channels ?? {}).filter((name) => wanted.has(name)));
    },

    async close() {
      // Nothing is held open: every call is its own HTTP request.
    },
  };
}

function sdkOptions(options: HostedRealtimeOptions): Pusher.Options {
  const base = {
    appId: options.app.id,
    key: options.app.key,
    secret: options.app.secret,
    useTLS: options.useTLS ?? true,
    timeout: options.timeoutMs ?? 10_000,
    ...(options.encryptionMasterKeyBase64 ? { encryptionMasterKeyBase64: options.encryptionMasterKeyBase64 } : {}),
  };
  if (options.host) return { ...base, host: options.host, ...(options.port ? { port: String(options.port) } : {}) };
  if (!options.cluster) throw new Error('A hosted Pusher needs a cluster or a host');
  return { ...base, cluster: options.cluster };
}

/** The longest prefix all names share: one `GET /channels?filter_by_prefix=` answers for all of them. */
export function commonPrefix(names: readonly string[]): string {
  if (names.length === 0) return '';
  let prefix = names[0];
  for (const name of names) {
    let i = 0;
    while (i < prefix.length && i < name.length && prefix[i] === name[i]) i++;
    prefix = prefix.slice(0, i);
    if (!prefix) break;
  }
  return prefix;
}
