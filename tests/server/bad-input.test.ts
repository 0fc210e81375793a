import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbTargets, type TestApp } from '../support/server.ts';
import { login, signUp } from '../support/server-flows.ts';

/**
 * The sentences of refused bodies. Hostile bodies over every call (malformed, wrong types, huge, deep, poisoned)
 * are the table of tests/server/hostile-input.test.ts.
 */
describe.each(dbTargets)('bad request bodies on %s', (target) => {
  let t: TestApp;
  let trader: Awaited<ReturnType<typeof signUp>>;
  /** A session of its own for each call: some hostile bodies are valid logouts and end the session they use. */
  const freshToken = async () => {
    const answer = await login(t, trader.username, trader.password);
    return (answer.body.info as { token: string }).token;
  };
  beforeAll(async () => {
    t = await createTestApp(target);
    trader = await signUp(t);
  });
  afterAll(() => t.close());

  it('names the field in schema refusals', async () => {
    const cases: Array<[string, unknown, string]> = [
      ['/api/security/validate_email/', { type: 'request', email: 'nope' }, 'email: Please enter a valid email address'],
      ['/api/security/validate_email/', { type: 'verify', email: 'a@b.co' }, 'code: Please enter a valid 6-digit verification code'],
      ['/api/security/validate_email/', { type: 'unknown', email: 'a@b.co' }, 'type must be one of: request, verify'],
      ['/api/security/validate_email/', { email: 'a@b.co' }, 'type must be one of: request, verify'],
      ['/api/security/reset_password/', { type: 'undo' }, 'type must be one of: request, reset'],
      ['/api/security/login/', {}, 'Username is required'],
      ['/api/security/login/', { username: 'alice' }, 'Password is required'],
      ['/api/security/login/', { username: 'a'.repeat(255), password: 'x' }, 'Username or email must be at most 254 characters'],
      ['/api/security/login/', { username: 'alice', password: 'x', device: 12 }, 'device must be text'],
      ['/api/security/two_factor_login/', { code: '123456' }, 'token is required'],
      [
        '/api/security/register/',
        { email: 'a@b.co', username: 'ab', password: 'secret1', confirmPassword: 'secret1' },
        'Username must be at least 3 characters',
      ],
      [
        '/api/security/register/',
        { email: 'a@b.co', username: 'abc', password: 'secret1', confirmPassword: 'secret2' },
        'confirmPassword: Passwords do not match',
      ],
      [
        '/api/security/register/',
        { email: 'a@b.co', username: 'ab c', password: 'secret1', confirmPassword: 'secret1' },
        'Username may only contain letters, digits and _',
      ],
      [
        '/api/security/register/',
        { email: 'a@b.co', username: 'abc', password: '12345', confirmPassword: '12345' },
        'Password must be at least 6 characters',
      ],
      ['/api/security/login/', [], 'The request body must be a JSON object.'],
    ];
    for (const [path, body, sentence] of cases) {
      expect(await t.post(path, body), `${path} ${JSON.stringify(body).slice(0, 80)}`).toEqual({
        status: 400,
        body: { success: false, info: sentence },
      });
    }
    expect(await t.post('/api/security/two_factor/', { type: 'reset' }, { token: await freshToken() })).toEqual({
      status: 400,
      body: { success: false, info: 'type must be one of: setup, enable, disable, recovery_codes, status' },
    });
  });

  it('answers the transport-level problems with their own sentences', async () => {
    expect(await t.post('/api/security/login/', undefined, { raw: '{"a":' })).toEqual({
      status: 400,
      body: { success: false, info: 'The request body is not valid JSON.' },
    });
    expect(
      await t.post('/api/security/login/', undefined, { raw: 'a=b', headers: { 'content-type': 'text/plain' } }),
    ).toEqual({ status: 400, body: { success: false, info: 'Please send the request body as JSON.' } });
    expect(await t.post('/api/security/login/', { pad: 'x'.repeat(100_000) })).toEqual({
      status: 413,
      body: { success: false, info: 'The request body is too large.' },
    });
  });

  it('refuses a body sent without a content type', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/security/login/', payload: '{"username":"a"}' });
    expect(response.headers['content-type'] ?? '').toMatch(/application\/json/);
    expect(response.json()).toEqual({ success: false, code: 'request.not_json', info: 'Please send the request body as JSON.' });
    expect(response.statusCode).toBe(400);
  });

  it('treats no body at all as empty', async () => {
    const noType = await t.app.inject({ method: 'POST', url: '/api/security/login/' });
    expect(noType.statusCode).toBe(400);
    expect(noType.json()).toEqual({ success: false, code: 'request.invalid_field', info: 'Username is required' });
    const overview = await t.app.inject({
      method: 'POST',
      url: '/api/user/overview/',
      headers: { authorization: `Bearer ${await freshToken()}` },
    });
    expect(overview.statusCode).toBe(200);
  });

  it('accepts JSON with a charset and ignores X-No-Toast', async () => {
    const answer = await t.post('/api/user/overview/', {}, {
      token: await freshToken(),
      headers: { 'content-type': 'application/json; charset=utf-8', 'x-no-toast': '1' },
    });
    expect(answer.status).toBe(200);
  });
});

/** A body of each call with ordinary text in every text field; each field in turn gets a U+0000. */
const TEXT_FIELDS: ReadonlyArray<{ path: string; signedIn: boolean; body: Record<string, unknown> }> = [
  { path: '/api/security/login/', signedIn: false, body: { username: 'alice', password: 'peerex-demo', device: 'Chrome on Linux' } },
  { path: '/api/security/two_factor_login/', signedIn: false, body: { code: '123456', token: 'interim', device: 'Chrome' } },
  { path: '/api/security/validate_email/', signedIn: false, body: { type: 'verify', email: 'a@b.co', code: '123456' } },
  {
    path: '/api/security/register/',
    signedIn: false,
    body: { email: 'nul@b.co', device: 'Chrome', username: 'nulnul', password: 'secret1', confirmPassword: 'secret1' },
  },
  {
    path: '/api/security/reset_password/',
    signedIn: false,
    body: { type: 'reset', email: 'a@b.co', code: '123456', password: 'secret1', confirmPassword: 'secret1' },
  },
  { path: '/api/security/logout/', signedIn: true, body: { device: 'Chrome' } },
  { path: '/api/security/two_factor/', signedIn: true, body: { type: 'enable', code: '123456', password: 'secret1' } },
  {
    path: '/api/market/offers/',
    signedIn: true,
    body: { type: 'create', update: false, offer_type: 'sell', coin: '1', currency: 'EUR', rate: '1', min_amount: '1', max_amount: '2', payment_methods: ['SEPA'], terms: 'Be quick' },
  },
  { path: '/api/market/offers/', signedIn: true, body: { type: 'list', page: 1, filters: { user__username__icontains: 'ali', payment_methods__overlap: ['SEPA'] } } },
  { path: '/api/market/trade/', signedIn: true, body: { type: 'open', offer: 1, amount: '10', payment_method: 'SEPA', rate: '1' } },
  { path: '/api/market/trade/', signedIn: true, body: { type: 'raise_dispute', channel: 'AAAAAAAAAAAAAAAAAAAAAA', reason: 'Not paid' } },
  { path: '/api/market/chat/', signedIn: true, body: { type: 'conversations', search: 'bob' } },
  { path: '/api/user/wallet/', signedIn: true, body: { type: 'list' } },
];

/** Text no field may hold: U+0000, which PostgreSQL text cannot store, and half a surrogate pair, which UTF-8 cannot. */
const BAD_TEXT = [
  { name: 'U+0000', inserted: '\u0000', sentence: (field: string) => `${field} contains a character that is not allowed (U+0000).` },
  { name: 'a lone surrogate', inserted: '\ud800', sentence: (field: string) => `${field} contains text that is not valid Unicode (a lone surrogate).` },
] as const;

/** Every path to a string in a JSON value, with a copy of the value where that string holds `inserted`. */
function poisoned(value: unknown, inserted: string, path: string[] = []): Array<{ field: string; body: unknown }> {
  if (typeof value === 'string') return [{ field: path.join('.'), body: `${value.slice(0, 2)}${inserted}${value.slice(2)}` }];
  if (Array.isArray(value)) {
    return value.flatMap((item, index) =>
      poisoned(item, inserted, [...path, String(index)]).map(({ field, body }) => ({ field, body: value.map((other, at) => (at === index ? body : other)) })),
    );
  }
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([key, item]) =>
      poisoned(item, inserted, [...path, key]).map(({ field, body }) => ({ field, body: { ...value, [key]: body } })),
    );
  }
  return [];
}

describe.each(dbTargets)('text holding U+0000 or a lone surrogate on %s', (target) => {
  let t: TestApp;
  let trader: Awaited<ReturnType<typeof signUp>>;
  beforeAll(async () => {
    t = await createTestApp(target);
    trader = await signUp(t);
  });
  afterAll(() => t.close());

  for (const bad of BAD_TEXT) {
    for (const call of TEXT_FIELDS) {
      for (const { field, body } of poisoned(call.body, bad.inserted)) {
        const type = typeof call.body.type === 'string' ? ` ${call.body.type}` : '';
        it(`${call.path}${type}: ${field} holding ${bad.name} is refused with 400, by name`, async () => {
          const answer = await t.post(call.path, body, call.signedIn ? { token: trader.token } : {});
          expect(answer).toEqual({ status: 400, body: { success: false, info: bad.sentence(field) } });
        });
      }
    }
  }

  it('changes nothing: no account from a poisoned signup, no sign-in failure counted, the session still works', async () => {
    const users = () => t.app.db.one<{ count: number }>('SELECT count(*)::int AS count FROM users');
    const before = (await users()).count;
    for (const bad of BAD_TEXT) {
      await t.post('/api/security/register/', { email: 'nul@b.co', device: 'x', username: `nul${bad.inserted}nul`, password: 'secret1', confirmPassword: 'secret1' });
    }
    expect((await users()).count).toBe(before);
    for (let attempt = 0; attempt < 12; attempt += 1) {
      await t.post('/api/security/login/', { username: trader.username, password: `wrong${BAD_TEXT[attempt % 2]?.inserted ?? ''}${attempt}` });
    }
    expect((await login(t, trader.username, trader.password)).status).toBe(200);
    expect((await t.post('/api/user/overview/', {}, { token: trader.token })).status).toBe(200);
  });

  it('names the body itself when the body is a string holding one', async () => {
    expect(await t.post('/api/security/login/', 'a\u0000b')).toEqual({
      status: 400,
      body: { success: false, info: 'The request body contains a character that is not allowed (U+0000).' },
    });
    expect(await t.post('/api/security/login/', 'a\udc00b')).toEqual({
      status: 400,
      body: { success: false, info: 'The request body contains text that is not valid Unicode (a lone surrogate).' },
    });
  });

  it('takes a well-formed surrogate pair (an emoji) and U+FFFD as the text they are', async () => {
    const offer = await t.post('/api/market/offers/', {
      type: 'create', update: false, offer_type: 'sell', coin: '1', currency: 'EUR', rate: '1', min_amount: '1', max_amount: '2', payment_methods: ['SEPA'], terms: 'Fast 💶 \uFFFD',
    }, { token: trader.token });
    expect(offer.status).toBe(200);
    expect(await t.app.db.one('SELECT terms FROM offers ORDER BY id DESC LIMIT 1')).toEqual({ terms: 'Fast 💶 \uFFFD' });
  });
});
