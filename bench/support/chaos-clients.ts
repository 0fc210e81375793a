/**
 * A chaos client: one trader as the web app behaves, over HTTP and pusher-js. It calls its home process and,
 * when nothing listens there, the other one (what a load balancer does with a process that is down); its
 * socket goes through a load balancer (chaos-cluster.ts `balancer`) that prefers the home process. A call
 * whose connection broke or that answered 5xx may or may not have been applied: the caller finds out by
 * refetching, never by sending it again blindly. What the client knows of each of its trades grows from the
 * answers it got, the realtime events it received and the refetch it makes whenever its user channel is
 * subscribed again after a reconnect; the run compares that with the database at the end.
 */
import PusherClient, { type Channel } from 'pusher-js';
import { realtimeEvents, tradeEvent, type ChatMessage } from '../../contracts/chat.ts';
import { conversation, TRADE_CHANNEL_HEADER, TRADE_EVENTS, type Conversation, type TradeFacts } from '../../contracts/trade.ts';
import { BUILT_IN_KEY } from '../../server/src/infra/realtime/settings.ts';
import { refusalMayPass, RESUBSCRIBE_FIRST_MS, RESUBSCRIBE_LAST_MS } from '../../src/services/realtime.ts';
import type { ChaosBalancer, ChaosServer } from './chaos-cluster.ts';

/** A call that takes longer than this hangs: an outage must be answered with an envelope, not a wait. */
export const CALL_TIMEOUT_MS = 15_000;
/** Between two refetches that failed, as a client backs off a little before asking again. */
const REFETCH_PAUSE_MS = 200;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export type Answer =
  | { kind: 'ok'; info: unknown; headers: Headers }
  /** The server answered a refusal (4xx) in the envelope. */
  | { kind: 'refused'; status: number; info: string }
  /** Connection broken, 5xx, or no answer in time: the call may or may not have been applied. */
  | { kind: 'failed'; why: string };

export interface CallCounts {
  made: number;
  acknowledged: number;
  failed: number;
  refused: number;
}

/** A call the server answered 200: the run checks each against the database. */
export type Acknowledged =
  | { kind: 'open'; channel: string }
  | { kind: 'mark_paid' | 'release_coin' | 'cancel'; channel: string }
  | { kind: 'message'; channel: string; text: string };

/** How far a trade has come; the facts only move forward, so what a client knows is the furthest it saw. */
export const progressOf = (facts: TradeFacts) => (facts.status !== 'pending' ? 3 : facts.dispute_raised ? 2 : facts.buyer_paid ? 1 : 0);

export const factsOf = ({ status, buyer_paid, dispute_raised }: TradeFacts): TradeFacts => ({ status, buyer_paid, dispute_raised });

export interface ChaosClientInit {
  username: string;
  id: string;
  token: string;
  websocketToken: string;
  /** The client's own address as a proxy would report it (X-Forwarded-For). */
  address: string;
  home: ChaosServer;
  other: ChaosServer;
  /** Load balancers of this client's own that send to `home` while it is up: one for the socket, one for its channel auth. */
  balancers: { socket: ChaosBalancer; auth: ChaosBalancer };
  /** Problems that fail the run. */
  violations: string[];
}

export class ChaosClient {
  readonly username: string;
  readonly id: string;
  /** The process this client's socket and calls go to. */
  readonly home: ChaosServer;
  readonly calls: CallCounts = { made: 0, acknowledged: 0, failed: 0, refused: 0 };
  readonly acknowledged: Acknowledged[] = [];
  readonly known = new Map<string, TradeFacts>();
  /** When the socket became connected, each time (the first is the initial connection). */
  readonly connectedAt: number[] = [];
  events = 0;
  refetches = 0;
  refusedSubscriptions = 0;
  /**
   * What happened to this client's socket and subscriptions, each with its time: a run whose clients end up
   * not knowing what the database knows is explained from here (with the servers' logs).
   */
  readonly timeline: Array<{ at: number; what: string }> = [];
  private readonly pusher: PusherClient;
  private readonly init: ChaosClientInit;

  constructor(init: ChaosClientInit) {
    this.init = init;
    this.username = init.username;
    this.id = init.id;
    this.home = init.home;
    this.pusher = new PusherClient(BUILT_IN_KEY, {
      cluster: 'peerex',
      wsHost: '127.0.0.1',
      wsPort: init.balancers.socket.port,
      forceTLS: false,
      enabledTransports: ['ws'],
      channelAuthorization: {
        endpoint: `http://127.0.0.1:${init.balancers.auth.port}/api/realtime/auth/`,
        transport: 'ajax',
        headers: { Authorization: `Bearer ${init.websocketToken}`, 'X-Forwarded-For': init.address },
      },
    });
    this.pusher.connection.bind('state_change', ({ current }: { current: string }) => {
      this.note(`socket ${current}`);
      if (current === 'connected') this.connectedAt.push(Date.now());
    });
    const user = this.pusher.subscribe(`private-user-${init.username}`);
    this.watchSubscription(user);
    // Whatever happened while the socket was away is only in the database: once the channel is live again, it
    // is read again, as the web app's chat list does. Not as soon as the socket is back: what was published
    // between that read and the channel's subscription would be missed for good.
    let userSubscriptions = 0;
    user.bind('pusher:subscription_succeeded', () => {
      userSubscriptions += 1;
      if (userSubscriptions > 1) void this.refetchAll();
    });
    user.bind(realtimeEvents.conversation, (data: unknown) => {
      this.events += 1;
      const parsed = conversation.safeParse(data);
      if (parsed.success) this.learn(parsed.data.channel, parsed.data);
      else this.init.violations.push(`${this.username}: a conversation event that is not the contract's: ${JSON.stringify(data)}`);
    });
  }

  /** Resolves once the socket is connected and the user channel subscribed. */
  ready(): Promise<void> {
    return new Promise((resolve, reject) => {
      const channel = this.pusher.channel(`private-user-${this.username}`);
      if (channel?.subscribed) return resolve();
      channel.bind('pusher:subscription_succeeded', () => resolve());
      channel.bind('pusher:subscription_error', (error: unknown) => reject(new Error(`${this.username}: ${JSON.stringify(error)}`)));
    });
  }

  /** Listens to a trade's channel while the trade is live. */
  follow(channel: string) {
    const subscription = this.pusher.subscribe(`private-${channel}`);
    this.watchSubscription(subscription);
    for (const event of TRADE_EVENTS) {
      subscription.bind(event, (data: unknown) => {
        this.events += 1;
        const parsed = tradeEvent.safeParse(data);
        if (parsed.success) this.learn(parsed.data.channel, parsed.data);
        else this.init.violations.push(`${this.username}: a ${event} event that is not the contract's: ${JSON.stringify(data)}`);
      });
    }
    subscription.bind(realtimeEvents.newMessage, () => void (this.events += 1));
  }

  private note(what: string) {
    this.timeline.push({ at: Date.now(), what });
  }

  /** Notes what becomes of a subscription, and asks again after a refusal that may pass, as the web app does. */
  private watchSubscription(channel: Channel) {
    let pause = RESUBSCRIBE_FIRST_MS;
    channel.bind('pusher:subscription_succeeded', () => {
      pause = RESUBSCRIBE_FIRST_MS;
      this.note(`subscribed ${channel.name}`);
    });
    channel.bind('pusher:subscription_error', (error: { status?: number; error?: string }) => {
      this.refusedSubscriptions += 1;
      this.note(`subscription to ${channel.name} refused: ${error?.status ?? ''} ${error?.error ?? JSON.stringify(error)}`);
      if (!refusalMayPass(error?.status)) return;
      // Unless the trade was unfollowed meanwhile (pusher-js then no longer holds the channel).
      setTimeout(() => this.pusher.channel(channel.name) === channel && this.pusher.subscribe(channel.name), pause);
      pause = Math.min(pause * 2, RESUBSCRIBE_LAST_MS);
    });
  }

  unfollow(channel: string) {
    this.pusher.unsubscribe(`private-${channel}`);
  }

  learn(channel: string, facts: TradeFacts) {
    const before = this.known.get(channel);
    if (!before || progressOf(facts) > progressOf(before)) this.known.set(channel, factsOf(facts));
  }

  isConnected = () => this.pusher.connection.state === 'connected';

  /** The process this client's socket lives on now (home, unless home was down when it last connected). */
  socketServer = () => this.init.balancers.socket.servedBy();

  disconnect() {
    this.pusher.disconnect();
  }

  /** One attempt of one call: home first, the other process when nothing listens at home. */
  async post(path: string, body: unknown): Promise<Answer> {
    this.calls.made += 1;
    let answer: Answer;
    try {
      answer = await this.send(this.init.home.port, path, body);
    } catch (error) {
      if (refusedConnection(error)) {
        try {
          answer = await this.send(this.init.other.port, path, body);
        } catch (again) {
          answer = { kind: 'failed', why: describe(again) };
        }
      } else answer = { kind: 'failed', why: describe(error) };
    }
    if (answer.kind === 'ok') this.calls.acknowledged += 1;
    else if (answer.kind === 'refused') this.calls.refused += 1;
    else this.calls.failed += 1;
    if (answer.kind === 'failed' && answer.why.startsWith('timeout')) this.init.violations.push(`${this.username}: ${path} ${JSON.stringify(body)} hung: no answer in ${CALL_TIMEOUT_MS} ms`);
    return answer;
  }

  private async send(port: number, path: string, body: unknown): Promise<Answer> {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${this.init.token}`, 'x-forwarded-for': this.init.address },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
    const text = await response.text();
    let parsed: { success?: unknown; info?: unknown } | undefined;
    try {
      parsed = JSON.parse(text) as { success?: unknown; info?: unknown };
    } catch {
      parsed = undefined;
    }
    if (!parsed || typeof parsed.success !== 'boolean') {
      this.init.violations.push(`${this.username}: ${path} answered ${response.status} without the envelope: ${text.slice(0, 200)}`);
      return { kind: 'failed', why: `${response.status} not an envelope` };
    }
    if (response.status === 200) return { kind: 'ok', info: parsed.info, headers: response.headers };
    if (response.status >= 500) return { kind: 'failed', why: `${response.status} ${String(parsed.info)}` };
    return { kind: 'refused', status: response.status, info: String(parsed.info) };
  }

  /** Asks until the server answers (a refetch changes nothing, so asking again is always safe). */
  private async read<T>(path: string, body: unknown): Promise<T> {
    for (;;) {
      const answer = await this.post(path, body);
      if (answer.kind === 'ok') return answer.info as T;
      if (answer.kind === 'refused') throw new Error(`${this.username}: ${path} ${JSON.stringify(body)} refused: ${answer.status} ${answer.info}`);
      await sleep(REFETCH_PAUSE_MS);
    }
  }

  async conversations(): Promise<Conversation[]> {
    this.refetches += 1;
    const list = await this.read<Conversation[]>('/api/market/chat/', { type: 'conversations' });
    for (const entry of list) this.learn(entry.channel, entry);
    return list;
  }

  refetchAll = () =>
    this.conversations().then(
      (list) => this.note(`read again after resubscribing: ${list.length} trades`),
      (error: unknown) => this.init.violations.push(`${this.username}: refetch after reconnecting failed: ${describe(error)}`),
    );

  messages = (channel: string) => this.read<ChatMessage[]>(`/api/market/chat/${channel}/`, { type: 'messages' });

  /** The channel a 200 `open` answered with. */
  static channelOf(answer: Extract<Answer, { kind: 'ok' }>): string {
    return answer.headers.get(TRADE_CHANNEL_HEADER) ?? '';
  }
}

function refusedConnection(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } }).cause;
  return cause?.code === 'ECONNREFUSED';
}

function describe(error: unknown): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return 'timeout';
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}
