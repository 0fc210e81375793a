/**
 * What the product publishes through and asks about its realtime server: the shape of the `pusher` Node
 * SDK's `trigger` and channel queries, so the built-in server (server.ts) and a hosted Pusher or soketi
 * (hosted.ts, the SDK itself) are interchangeable by configuration (docs/api.md "Realtime").
 */
export interface RealtimePublisher {
  /**
   * Sends `event` with `data` (serialised as JSON) to every subscriber of each channel, on every server
   * process; `socketId` excludes that connection. Resolves once the event is handed on (the built-in server:
   * delivered locally and put on the bus; hosted: the HTTP call answered).
   */
  trigger(channels: string | string[], event: string, data: unknown, options?: { socketId?: string }): Promise<void>;
  /** Which of `channels` have at least one subscriber right now, on any process. */
  occupied(channels: readonly string[]): Promise<Set<string>>;
  /** Stops publishing; the built-in server also closes every socket with 4200 so clients reconnect elsewhere. */
  close(): Promise<void>;
}

/** One app of a Pusher-compatible server: the public key, the id in HTTP API paths, the signing secret. */
export interface RealtimeApp {
  id: string;
  key: string;
  secret: string;
}
