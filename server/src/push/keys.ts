import PushNotifications from '@pusher/push-notifications-server';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { createECDH, hkdfSync } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import webpush from 'web-push';
import { PUSH_USER_ID_MAX_LENGTH } from '../../../contracts/notifications.ts';
import type { Config, ServerConfig } from '../config.ts';
import type { VapidKeys as PushVapidKeys } from '../../../packages/push-service/index.ts';
import { BUILT_IN_PUSH_INSTANCE, beamsIssuer } from './instance.ts';

/**
 * The keys of web push: the VAPID pair the browsers' subscriptions are bound to (docs/pusher-and-beams.md "Web push delivery"), and the
 * secret of the Beams tokens that bind a device to a user (docs/pusher-and-beams.md "Beams tokens").
 */

export class PushKeyError extends Error {
  override name = 'PushKeyError';
}

/** The pair the worker signs with (packages/push-service), and where it came from, for the boot line. */
export interface VapidKeys extends PushVapidKeys {
  source: string;
}

/** The file a generated pair lives in, under DATA_DIR. */
export const VAPID_KEYS_FILE = 'vapid-keys.json';
/** A raw uncompressed P-256 point (0x04 ‖ x ‖ y) and a P-256 scalar. */
const P256_PUBLIC_BYTES = 65;
const P256_PRIVATE_BYTES = 32;

const isVapidPair = (value: unknown): value is { publicKey: string; privateKey: string } =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { publicKey?: unknown }).publicKey === 'string' &&
  typeof (value as { privateKey?: unknown }).privateKey === 'string' &&
  Buffer.from((value as { publicKey: string }).publicKey, 'base64url').length === P256_PUBLIC_BYTES &&
  Buffer.from((value as { privateKey: string }).privateKey, 'base64url').length === P256_PRIVATE_BYTES;

/** The public half of a P-256 private key, as web push names it (base64url of the raw point). */
function pairOfPrivateKey(privateKey: Buffer): { publicKey: string; privateKey: string } {
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(privateKey);
  return { publicKey: ecdh.getPublicKey().toString('base64url'), privateKey: privateKey.toString('base64url') };
}

/** MAIL_FROM's address (`Peerex <no-reply@x>` or a bare address) as the VAPID contact. */
export function vapidSubjectOf(config: Pick<Config, 'mailFrom' | 'push'>): string {
  if (config.push.vapidSubject) return config.push.vapidSubject;
  const address = /<([^>]+)>/.exec(config.mailFrom)?.[1] ?? config.mailFrom.trim();
  return `mailto:${address}`;
}

/**
 * A new key pair as the two variables production reads (`VAPID_PUBLIC_KEY`, `VAPID_PRIVATE_KEY`): what an
 * operator sets once, and what a test or benchmark booting with NODE_ENV=production uses.
 */
export function newVapidEnvironment(): { VAPID_PUBLIC_KEY: string; VAPID_PRIVATE_KEY: string } {
  const pair = webpush.generateVAPIDKeys();
  return { VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: pair.privateKey };
}

/**
 * VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY, else a pair generated once into DATA_DIR (mode 0600, created
 * exclusively, so two processes starting together agree on one), else with DATA_DIR=memory:// a pair derived
 * from APP_SECRET: every process sharing the secret (a test's two servers) derives the same one. Production
 * refuses to generate one: several processes behind a load balancer must share one pair, and a lost pair
 * makes every browser's subscription useless.
 */
export async function loadVapidKeys(config: Pick<ServerConfig, 'nodeEnv' | 'dataDir' | 'appSecret' | 'mailFrom' | 'push'>): Promise<VapidKeys> {
  const subject = vapidSubjectOf(config);
  if (config.push.vapidPublicKey && config.push.vapidPrivateKey) {
    const pair = { publicKey: config.push.vapidPublicKey, privateKey: config.push.vapidPrivateKey };
    if (!isVapidPair(pair)) {
      throw new PushKeyError('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are not a P-256 key pair in base64url (`npx web-push generate-vapid-keys` makes one).');
    }
    return { ...pair, subject, source: 'VAPID_PUBLIC_KEY' };
  }
  if (config.nodeEnv === 'production') {
    throw new PushKeyError(
      'Refusing to start: NODE_ENV=production needs VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY (`npx web-push generate-vapid-keys` makes a pair), ' +
        'or BEAMS_INSTANCE_ID and BEAMS_SECRET_KEY for hosted Beams: every server process must sign web pushes with the same key pair.',
    );
  }
  if (config.dataDir.startsWith('memory://')) {
    const scalar = Buffer.from(hkdfSync('sha256', config.appSecret, 'peerex', 'development vapid key', P256_PRIVATE_BYTES));
    return { ...pairOfPrivateKey(scalar), subject, source: 'a development VAPID key pair derived from APP_SECRET' };
  }
  const path = join(config.dataDir, VAPID_KEYS_FILE);
  await mkdir(config.dataDir, { recursive: true });
  try {
    await writeFile(path, `${JSON.stringify(webpush.generateVAPIDKeys())}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  let stored: unknown;
  try {
    stored = JSON.parse(await readFile(path, 'utf8'));
  } catch {
    stored = undefined;
  }
  if (!isVapidPair(stored)) throw new PushKeyError(`${path} is not a VAPID key pair. Restore it, or delete it (every browser then subscribes again).`);
  return { publicKey: stored.publicKey, privateKey: stored.privateKey, subject, source: `the development VAPID key pair in ${path}` };
}

/**
 * Beams tokens: HS256 JWTs that say "this device belongs to user `sub`" (docs/pusher-and-beams.md "Beams tokens"). The built-in
 * instance's also name the session they were issued to (`sid`, the JWT claim for a session id): the device
 * belongs to that session, and goes when it ends.
 */
export interface BeamsTokens {
  readonly instanceId: string;
  /** A token for `username`, issued to session `sessionId`, valid for a day, as Beams' TokenProvider expects it. */
  issue(username: string, sessionId: string): Promise<string>;
  /** The username a token was issued for, or undefined: bad signature, expired, another issuer, no subject. */
  verify(token: string): Promise<string | undefined>;
  /** `verify`, with when the token was issued (its `iat`) and to which session, or undefined also when it names neither. */
  verifyIssued(token: string): Promise<{ username: string; issuedAt: Date; sessionId: string } | undefined>;
}

/** Session ids are bigints: their digits. */
const SESSION_ID = /^[1-9][0-9]{0,17}$/;

/** Beams tokens live a day (the server SDK's `expiresIn: '24h'`). */
const BEAMS_TOKEN_LIFETIME_SECONDS = 24 * 60 * 60;

/**
 * The built-in instance signs with a key derived from APP_SECRET for this purpose only, so a token is
 * worthless anywhere else; hosted Beams signs with BEAMS_SECRET_KEY through its own SDK, and Pusher checks it.
 */
export function beamsTokens(config: Pick<ServerConfig, 'appSecret' | 'push'>, now: () => Date): BeamsTokens {
  const hosted = config.push.beams;
  const instanceId = hosted?.instanceId ?? BUILT_IN_PUSH_INSTANCE;
  const secret = hosted
    ? new TextEncoder().encode(hosted.secretKey)
    : new Uint8Array(hkdfSync('sha256', config.appSecret, 'peerex', 'beams token secret', 32));
  const issuer = beamsIssuer(instanceId);
  const sdk = hosted ? new PushNotifications({ instanceId: hosted.instanceId, secretKey: hosted.secretKey }) : undefined;
  const verifyClaims = async (token: string, needsIssuedAt: boolean) => {
    try {
      const { payload } = await jwtVerify(token, secret, {
        algorithms: ['HS256'],
        issuer,
        currentDate: now(),
        requiredClaims: needsIssuedAt ? ['sub', 'exp', 'iat'] : ['sub', 'exp'],
      });
      const subject = payload.sub;
      if (!subject || subject.length > PUSH_USER_ID_MAX_LENGTH) return undefined;
      const sessionId = typeof payload.sid === 'string' && SESSION_ID.test(payload.sid) ? payload.sid : '';
      return { username: subject, issuedAt: new Date((payload.iat ?? 0) * 1000), sessionId };
    } catch (error) {
      if (error instanceof joseErrors.JOSEError) return undefined;
      throw error;
    }
  };
  return {
    instanceId,
    async issue(username, sessionId) {
      // Hosted Beams's own tokens name no session: Pusher binds the devices, and keeps them (docs/rules.md "Sessions").
      if (sdk) return sdk.generateToken(username).token;
      const iat = Math.floor(now().getTime() / 1000);
      return new SignJWT({ sid: sessionId })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(username)
        .setIssuer(issuer)
        .setIssuedAt(iat)
        .setExpirationTime(iat + BEAMS_TOKEN_LIFETIME_SECONDS)
        .sign(secret);
    },
    async verify(token) {
      return (await verifyClaims(token, false))?.username;
    },
    async verifyIssued(token) {
      const claims = await verifyClaims(token, true);
      return claims?.sessionId ? claims : undefined;
    },
  };
}
