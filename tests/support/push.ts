import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Agent, createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserSubscription } from '../../packages/push-service/tests/support/beams-sdk.ts';
import { newVapidEnvironment } from '../../server/src/push/keys.ts';
// http_ece is the reference implementation of RFC 8188/8291 that web-push itself builds on.
import ece from 'http_ece';

/**
 * VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY for a test that boots with NODE_ENV=production, which refuses to start
 * without a key pair (server/src/push/keys.ts); a fresh pair per run, like TEST_WALLET_XPUBS' public keys.
 */
export const TEST_VAPID_KEYS = newVapidEnvironment();

// The browser and its Beams SDK calls are the package's test support, shared with its own tests.
export {
  beamsSdk,
  BROWSER_USER_AGENT,
  browserSubscription,
  DEVICE_API,
  FCM,
  registeredBrowser,
  SDK_VERSION,
  tokenOf,
  type BrowserSubscription,
} from '../../packages/push-service/tests/support/beams-sdk.ts';

/** Decrypts an aes128gcm push body as the browser would, and parses the JSON inside. */
export function decryptPush(body: Buffer, subscription: BrowserSubscription): unknown {
  const plain = ece.decrypt(body, { version: 'aes128gcm', privateKey: subscription.ecdh, authSecret: subscription.auth }) as Buffer;
  return JSON.parse(plain.toString('utf8'));
}

// ---- a local HTTPS push service ----

/** A self-signed certificate for localhost, made once per run with openssl (never a committed key). */
let certificate: { key: Buffer; cert: Buffer } | undefined;
export function localhostCertificate(): { key: Buffer; cert: Buffer } {
  if (certificate) return certificate;
  const dir = mkdtempSync(join(tmpdir(), 'peerex-push-cert-'));
  try {
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
      '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost',
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
    ], { stdio: 'ignore' });
    certificate = { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
    return certificate;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface ReceivedPush {
  path: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

/** What the push service answers to the next request: a status (with headers), or hold it unanswered. */
export type PushAnswer = { status: number; headers?: Record<string, string> } | 'hold';

export interface LocalPushService {
  /** `localhost:<port>`, for PUSH_ALLOWED_HOSTS. */
  host: string;
  /** An endpoint on it, as a browser's subscription would name one. */
  endpoint(path?: string): string;
  /** An agent trusting its certificate, for BuildAppOptions.push.agent. */
  agent: Agent;
  received: ReceivedPush[];
  /** Answers queued for the next requests; when empty, 201 Created as push services answer. */
  answers: PushAnswer[];
  /** Requests held unanswered so far. */
  held: number;
  /** Resolves at the next request received. */
  nextRequest(): Promise<ReceivedPush>;
  close(): Promise<void>;
}

export async function localPushService(): Promise<LocalPushService> {
  const { key, cert } = localhostCertificate();
  const received: ReceivedPush[] = [];
  const answers: PushAnswer[] = [];
  const sockets = new Set<Socket>();
  let waiters: ((push: ReceivedPush) => void)[] = [];
  const state = { held: 0 };
  const server = createHttpsServer({ key, cert }, (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const push = { path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks) };
      received.push(push);
      const current = waiters;
      waiters = [];
      current.forEach((resolve) => resolve(push));
      const answer = answers.shift() ?? { status: 201 };
      if (answer === 'hold') {
        state.held += 1;
        return;
      }
      response.writeHead(answer.status, answer.headers ?? {});
      response.end();
    });
  });
  server.on('secureConnection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const agent = new Agent({ ca: cert, keepAlive: false });
  return {
    host: `localhost:${port}`,
    endpoint: (path = `/push/${randomBytes(8).toString('hex')}`) => `https://localhost:${port}${path}`,
    agent,
    received,
    answers,
    get held() {
      return state.held;
    },
    nextRequest: () => new Promise((resolve) => waiters.push(resolve)),
    async close() {
      // Held requests never end by themselves: cut them, so the worker's send fails and its round ends.
      for (const socket of sockets) socket.destroy();
      agent.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// ---- a fake hosted Beams publish API ----

export interface FakeBeams {
  host: string;
  port: number;
  received: { method: string; path: string; headers: IncomingMessage['headers']; body: unknown }[];
  /** While true, requests are received and never answered (a Beams that hangs). */
  holding: boolean;
  close(): Promise<void>;
}

/** Answers the publish API as Beams does (`{publishId}`), over plain HTTP as the SDK's `endpoint` option makes it. */
export async function fakeBeams(): Promise<FakeBeams> {
  const received: FakeBeams['received'] = [];
  const state = { holding: false };
  const sockets = new Set<Socket>();
  const server = createHttpServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ method: request.method ?? '', path: request.url ?? '', headers: request.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null') });
      if (state.holding) return;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ publishId: `pubid-${received.length}` }));
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    host: '127.0.0.1',
    port,
    received,
    get holding() {
      return state.holding;
    },
    set holding(value: boolean) {
      state.holding = value;
    },
    close: () => {
      // Held requests never end by themselves.
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
