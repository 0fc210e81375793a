import { expect } from 'vitest';
import type { OfferList } from '../../contracts/market.ts';
import type { LoginResponse, SessionResponse } from '../../contracts/security.ts';
import { hashToken } from '../../server/src/infra/secrets.ts';
import { totpCode } from '../../server/src/accounts/totp.ts';
import type { TestApp } from './server.ts';

/** The 6-digit code of the newest mail to `email` in the app's outbox. */
export function lastCodeFor(t: TestApp, email: string): string {
  const mail = t.outbox.recent().find((entry) => entry.to === email);
  const code = mail && /\b(\d{6})\b/.exec(mail.text)?.[1];
  if (!code) throw new Error(`No code mailed to ${email}`);
  return code;
}

/** A code that is certainly not `code` (for wrong-code tests). */
export const otherCode = (code: string): string => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

let sequence = 0;
/** Fresh, valid and unique account details for one test. */
export function newTrader(prefix = 'trader') {
  sequence += 1;
  const id = `${prefix}${sequence}${Math.floor(Math.random() * 1e6)}`.slice(0, 30);
  return { email: `${id}@example.test`, username: id, password: 'correct-horse-9' };
}

/** Signup as the web app does it: request a code, verify it, register. */
export async function signUp(t: TestApp, trader = newTrader()): Promise<SessionResponse & typeof trader> {
  const requested = await t.post('/api/security/validate_email/', { type: 'request', email: trader.email });
  expect(requested.status, JSON.stringify(requested.body)).toBe(200);
  const verified = await t.post('/api/security/validate_email/', {
    type: 'verify',
    email: trader.email,
    code: lastCodeFor(t, trader.email),
  });
  expect(verified.status, JSON.stringify(verified.body)).toBe(200);
  const registered = await t.post<SessionResponse>('/api/security/register/', {
    email: trader.email,
    username: trader.username,
    password: trader.password,
    confirmPassword: trader.password,
    device: 'vitest',
  });
  expect(registered.status, JSON.stringify(registered.body)).toBe(200);
  return { ...trader, ...registered.body.info };
}

export function login(t: TestApp, username: string, password: string, extra: { ip?: string } = {}) {
  return t.post<LoginResponse | string>(
    '/api/security/login/',
    { username, password, device: 'vitest' },
    extra.ip ? { ip: extra.ip } : {},
  );
}

/** The id of the session behind a bearer token (what a Beams token names, and a socket is tied to). */
export async function sessionIdOf(t: TestApp, token: string): Promise<string> {
  return (await t.app.db.one<{ id: string }>('SELECT id FROM sessions WHERE token_hash = $1', [hashToken(token)])).id;
}

/** The authenticator code for the app's current time, shifted by whole 30-second steps. */
export function codeAt(t: TestApp, secret: string, stepOffset = 0): Promise<string> {
  return totpCode(secret, new Date(t.clock.now().getTime() + stepOffset * 30_000));
}

/** Signs up a trader and turns two-factor on through the API; returns the secret too. */
export async function signUpWithTwoFactor(t: TestApp) {
  const trader = await signUp(t);
  const setup = await t.post<{ secret: string; otpauth_url: string }>(
    '/api/security/two_factor/',
    { type: 'setup' },
    { token: trader.token },
  );
  expect(setup.status).toBe(200);
  const enabled = await t.post<{ message: string; recovery_codes: string[] }>(
    '/api/security/two_factor/',
    { type: 'enable', code: await codeAt(t, setup.body.info.secret), password: trader.password },
    { token: trader.token },
  );
  expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
  // The enabling code's step is spent: move two steps on, so that even a code one step back is unspent.
  t.clock.advance(2 * 30_000);
  return { ...trader, secret: setup.body.info.secret, recoveryCodes: enabled.body.info.recovery_codes };
}

/** A valid `create` body: a sell offer of coin 1 (BTC) for EUR over SEPA; override any field. */
export function offerBody(overrides: Record<string, unknown> = {}) {
  return {
    type: 'create',
    update: false,
    id: null,
    offer_type: 'sell',
    coin: '1',
    currency: 'EUR',
    rate: '0.93',
    min_amount: '100',
    max_amount: '1000',
    payment_methods: ['SEPA'],
    terms: null,
    ...overrides,
  };
}

/**
 * Publishes an offer through the API and answers its id. The answer is only a sentence, so the id is the
 * newest in the table: tests publish one at a time.
 */
export async function publishOffer(t: TestApp, token: string, overrides: Record<string, unknown> = {}): Promise<number> {
  const answer = await t.post<string>('/api/market/offers/', offerBody(overrides), { token });
  expect(answer, JSON.stringify(answer.body)).toEqual({ status: 200, body: { success: true, info: 'Offer published successfully.' } });
  return (await t.app.db.one<{ id: number }>('SELECT max(id)::int AS id FROM offers')).id;
}

/** One page of Browse Offers as a trader sees it. */
export function listOffers(t: TestApp, token: string, filters: Record<string, unknown> = {}, page?: number) {
  return t.post<OfferList>('/api/market/offers/', { type: 'list', filters, ...(page === undefined ? {} : { page }) }, { token });
}
