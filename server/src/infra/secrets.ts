import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RECOVERY_CODE_ALPHABET, RECOVERY_CODE_LENGTH } from '../../../contracts/common.ts';
import type { Config } from '../config.ts';

/** 256 bits: guessing a live token is hopeless however many sessions exist. */
const TOKEN_BYTES = 32;

/** An opaque bearer token, URL-safe so it needs no escaping in headers or query strings. */
export function newToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

/**
 * Tokens are stored as SHA-256, not as themselves: they are already 256 random bits, so a fast hash
 * is enough to make a leaked table useless, and lookup stays a single indexed equality.
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

const CODE_DIGITS = 6;

/** A 6-digit email code from the CSPRNG, zero-padded ("000123" is as likely as any other). */
export function newEmailCode(): string {
  return randomInt(0, 10 ** CODE_DIGITS).toString().padStart(CODE_DIGITS, '0');
}

/** How many recovery codes an enrolment hands out. */
export const RECOVERY_CODE_COUNT = 10;

/** A fresh set of recovery codes from the CSPRNG, as the owner is shown them (`abcde-fghij`). */
export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: count }, () => {
    const symbols = Array.from({ length: RECOVERY_CODE_LENGTH }, () => RECOVERY_CODE_ALPHABET[randomInt(RECOVERY_CODE_ALPHABET.length)]);
    const half = RECOVERY_CODE_LENGTH / 2;
    return `${symbols.slice(0, half).join('')}-${symbols.slice(half).join('')}`;
  });
}

/** The file a generated APP_SECRET lives in, under DATA_DIR. */
export const APP_SECRET_FILE = 'app-secret.txt';
/** 256 random bits, as 64 hex digits. */
const GENERATED_SECRET_BYTES = 32;
/** What a secret file must hold at least: a shorter one was not written by this server. */
const MIN_STORED_SECRET_LENGTH = 32;

export class AppSecretError extends Error {
  override name = 'AppSecretError';
}

export interface AppSecret {
  value: string;
  /** Where it came from, for the boot line. */
  source: string;
}

/**
 * Writes `content` to `path` only if nothing is there, atomically: the content goes to a file of this process's
 * own and is then hard-linked into place, which fails if the name exists. Another process starting at the same
 * moment therefore either wins (and this one reads its file, already complete) or loses; nobody reads half a
 * file, as a plain exclusive create followed by a write would let them.
 */
async function createOnce(path: string, content: string): Promise<void> {
  const own = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(own, content, { flag: 'wx', mode: 0o600 });
  try {
    await link(own, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await unlink(own);
  }
}

/**
 * APP_SECRET, else a random secret generated once into DATA_DIR (mode 0600, created atomically, so processes
 * sharing DATA_DIR that start together end with the same one) and read again on every later start; with
 * DATA_DIR=memory:// nothing is kept, so each process makes its own (tests that run two servers set
 * APP_SECRET). loadConfig refuses NODE_ENV=production without APP_SECRET: a fleet must share one.
 * Nothing written in the source ever signs: a value from an earlier version's source is refused everywhere
 * it is checked (realtime signatures, the trigger API, Beams tokens, sealed two-factor secrets).
 */
export async function loadAppSecret(config: Pick<Config, 'appSecret' | 'dataDir'>): Promise<AppSecret> {
  if (config.appSecret !== undefined) return { value: config.appSecret, source: 'APP_SECRET' };
  if (config.dataDir.startsWith('memory://')) {
    return { value: randomBytes(GENERATED_SECRET_BYTES).toString('hex'), source: 'a random secret of this process (DATA_DIR=memory://)' };
  }
  const path = join(config.dataDir, APP_SECRET_FILE);
  await mkdir(config.dataDir, { recursive: true });
  await createOnce(path, `${randomBytes(GENERATED_SECRET_BYTES).toString('hex')}\n`);
  const value = (await readFile(path, 'utf8')).trim();
  if (value.length < MIN_STORED_SECRET_LENGTH || /\s/.test(value)) {
    throw new AppSecretError(
      `${path} does not hold a secret of at least ${MIN_STORED_SECRET_LENGTH} characters. Restore it, or delete it to have a new one made ` +
        '(two-factor set-ups sealed under the old one then stop working: README "Secrets").',
    );
  }
  return { value, source: `the secret generated in ${path}` };
}

/**
 * Keys derived from APP_SECRET, one per use, so that no value computed for one purpose (a code hash)
 * is ever valid for another (an encrypted secret).
 */
export interface AppKeys {
  /** HMAC-SHA256 of an email code, bound to the address and purpose it was issued for. */
  hashEmailCode(purpose: string, email: string, code: string): string;
  /**
   * HMAC-SHA256 of a recovery code (canonical form, contracts/common.ts), bound to its user. 50 random bits
   * are too few for a plain hash of a leaked table; keyed, the table alone is useless.
   */
  hashRecoveryCode(userId: string, canonicalCode: string): string;
  /** Constant-time comparison of two hex digests. */
  sameDigest(a: string, b: string): boolean;
  /** AES-256-GCM for secrets the server must read back (TOTP seeds). */
  seal(plaintext: string): string;
  open(sealed: string): string;
  /** The built-in realtime server's app secret when PUSHER_SECRET is unset: private, and stable across restarts and processes. */
  realtimeSecret: string;
}

const SEALED_PREFIX = 'v1';
const GCM_IV_BYTES = 12;

export function deriveKeys(appSecret: string): AppKeys {
  const derive = (purpose: string) =>
    Buffer.from(hkdfSync('sha256', appSecret, 'peerex', purpose, 32));
  const codeKey = derive('email-code');
  const recoveryKey = derive('recovery-code');
  const sealKey = derive('sealed-secret');
  const realtimeSecret = derive('realtime-secret').toString('hex');

  return {
    realtimeSecret,
    hashEmailCode(purpose, email, code) {
      // NUL separators: no purpose/email/code combination can collide with another.
      return createHmac('sha256', codeKey).update(`${purpose}\0${email}\0${code}`, 'utf8').digest('hex');
    },
    hashRecoveryCode(userId, canonicalCode) {
      return createHmac('sha256', recoveryKey).update(`${userId}\0${canonicalCode}`, 'utf8').digest('hex');
    },
    sameDigest(a, b) {
      const left = Buffer.from(a, 'hex');
      const right = Buffer.from(b, 'hex');
      return left.length === right.length && timingSafeEqual(left, right);
    },
    seal(plaintext) {
      const iv = randomBytes(GCM_IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', sealKey, iv);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [SEALED_PREFIX, iv, body, cipher.getAuthTag()]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join(':');
    },
    open(sealed) {
      const [prefix, iv, body, tag] = sealed.split(':');
      if (prefix !== SEALED_PREFIX || !iv || !body || !tag) throw new Error('Not a sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', sealKey, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
