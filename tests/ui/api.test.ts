import { z } from 'zod/mini';
import { messageResponse, twoFactorStatusResponse } from '../../contracts/index.ts';
import { createAccountService, SignInExpired } from '../../src/services/accounts.ts';
import { ApiError } from '../../src/services/api.ts';
import { apiWith, fakeServer, ok, refused, type Answer, type Sent } from '../support/api.ts';

/** The rejection of a call, for assertions on its type and message. */
async function rejectionOf(promise: Promise<unknown>): Promise<ApiError> {
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome)) throw new Error(`expected a rejection, got ${JSON.stringify(outcome.value)}`);
  expect(outcome.error).toBeInstanceOf(ApiError);
  return outcome.error as ApiError;
}

describe('api: requests (docs/api.md "Conventions")', () => {
  it('POSTs JSON to the base URL, with the path written either way', async () => {
    const server = fakeServer(ok({ enabled: true, recovery_codes_left: 10 }));
    const { api } = apiWith(server);
    await api.write('security/two_factor/', { type: 'status' }, twoFactorStatusResponse);
    await api.read('/user/overview/', {}, z.unknown());
    expect(server.sent.map(({ url, method }) => [url, method])).toEqual([
      ['/api/security/two_factor/', 'POST'],
      ['/api/user/overview/', 'POST'],
    ]);
    expect(server.sent[0]!.headers.get('Content-Type')).toMatch(/^application\/json/);
    expect(server.sent[0]!.body).toEqual({ type: 'status' });
    expect(server.sent[1]!.body).toEqual({});
  });

  it('sends a Bearer token when there is one, and no Authorization header otherwise', async () => {
    let token: string | null = 'tok-123';
    const server = fakeServer(ok('fine'));
    const { api } = apiWith(server, { getToken: () => token });
    await api.write('a/', {}, messageResponse);
    token = null;
    await api.write('a/', {}, messageResponse);
    expect(server.sent[0]!.headers.get('Authorization')).toBe('Bearer tok-123');
    expect(server.sent[1]!.headers.has('Authorization')).toBe(false);
  });
});

describe('api: answers and refusals', () => {
  it('a success envelope resolves with its info parsed by the schema', async () => {
    const server = fakeServer(ok({ enabled: true, recovery_codes_left: 10, surplus: 'dropped by the schema' }));
    const { api, onError } = apiWith(server);
    await expect(api.read('security/two_factor/', { type: 'status' }, twoFactorStatusResponse)).resolves.toEqual({
      enabled: true,
      recovery_codes_left: 10,
    });
    expect(onError).not.toHaveBeenCalled();
  });

  it('an info that does not match the schema is refused as "An unknown error occurred"', async () => {
    const server = fakeServer(ok({ enabled: 'yes' }));
    const { api, onError } = apiWith(server);
    const error = await rejectionOf(api.write('x/', {}, twoFactorStatusResponse));
    expect(error.message).toBe('An unknown error occurred');
    expect(onError).toHaveBeenCalledExactlyOnceWith('An unknown error occurred');
  });

  it.each([200, 400, 403, 404])('success:false (HTTP %i) shows the message as a red toast and rejects with it', async (status) => {
    const server = fakeServer(refused('Insufficient balance', status));
    const { api, onError, onSessionExpired } = apiWith(server);
    const error = await rejectionOf(api.write('market/trade/', { type: 'open' }, messageResponse));
    expect(error.message).toBe('Insufficient balance');
    expect(error.status).toBe(status);
    expect(onError).toHaveBeenCalledExactlyOnceWith('Insufficient balance');
    expect(onSessionExpired).not.toHaveBeenCalled();
  });

  it('X-No-Toast: the header is sent and the refusal is not toasted, but still rejects with its message', async () => {
    const server = fakeServer(refused('Nothing to show'));
    const { api, onError } = apiWith(server);
    const error = await rejectionOf(api.write('user/notifications/', { type: 'list' }, z.unknown(), { noToast: true }));
    expect(error.message).toBe('Nothing to show');
    expect(server.sent[0]!.headers.get('X-No-Toast')).toBeTruthy();
    expect(onError).not.toHaveBeenCalled();
  });

  it('without noToast no X-No-Toast header is sent', async () => {
    const server = fakeServer(ok('fine'));
    const { api } = apiWith(server);
    await api.write('a/', {}, messageResponse);
    expect(server.sent[0]!.headers.has('X-No-Toast')).toBe(false);
  });

  it('HTTP 401 signs the trader out', async () => {
    const server = fakeServer({ status: 401, body: { success: false, info: 'Authentication required' } });
    const { api, onSessionExpired } = apiWith(server, { getToken: () => 'stale' });
    const error = await rejectionOf(api.write('user/wallet/', { type: 'list' }, z.unknown()));
    expect(error.status).toBe(401);
    expect(onSessionExpired).toHaveBeenCalledOnce();
  });

  it('HTTP 401 without a JSON body signs the trader out too', async () => {
    const server = fakeServer({ status: 401, raw: 'Unauthorized' });
    const { api, onSessionExpired } = apiWith(server);
    await rejectionOf(api.write('a/', {}, z.unknown()));
    expect(onSessionExpired).toHaveBeenCalledOnce();
  });

  it.each([
    ['"Session expired" with HTTP 200', refused('Session expired', 200)],
    ['"Session expired, please login again" with HTTP 403', refused('Session expired, please login again', 403)],
    ['"L101" with HTTP 400', refused('L101: token revoked', 400)],
    ['"L101" with HTTP 500', refused('L101', 500)],
  ])('a %s envelope signs the trader out', async (_, answer) => {
    const server = fakeServer(answer);
    const { api, onSessionExpired, onError } = apiWith(server);
    await rejectionOf(api.write('a/', {}, z.unknown()));
    expect(onSessionExpired).toHaveBeenCalledOnce();
    expect(onError).not.toHaveBeenCalled();
  });

  it('a refusal keeps its code beside the sentence it shows; the code session.expired signs out whatever the words', async () => {
    const server = fakeServer(
      { status: 409, body: { success: false, code: 'trade.not_pending', info: 'This trade is no longer pending.' } },
      { status: 403, body: { success: false, code: 'session.expired', info: 'Sitzung abgelaufen' } },
    );
    const { api, onSessionExpired, onError } = apiWith(server);
    const refusal = await rejectionOf(api.write('a/', {}, z.unknown()));
    expect({ message: refusal.message, status: refusal.status, code: refusal.code }).toEqual({
      message: 'This trade is no longer pending.',
      status: 409,
      code: 'trade.not_pending',
    });
    expect(onError).toHaveBeenCalledExactlyOnceWith('This trade is no longer pending.');
    expect(onSessionExpired).not.toHaveBeenCalled();
    const expiry = await rejectionOf(api.write('a/', {}, z.unknown()));
    expect({ status: expiry.status, code: expiry.code }).toEqual({ status: 401, code: 'session.expired' });
    expect(onSessionExpired).toHaveBeenCalledOnce();
  });

  it('"Session expired" inside a success envelope is data, not an expiry', async () => {
    const server = fakeServer(ok('Session expired'));
    const { api, onSessionExpired } = apiWith(server);
    await expect(api.write('a/', {}, messageResponse)).resolves.toBe('Session expired');
    expect(onSessionExpired).not.toHaveBeenCalled();
  });

  it('HTTP 500 rejects with "Internet server error"', async () => {
    const server = fakeServer({ status: 500, body: { success: false, info: 'Traceback (most recent call last)' } });
    const { api, onError } = apiWith(server);
    const error = await rejectionOf(api.write('a/', {}, z.unknown()));
    expect(error.message).toBe('Internet server error');
    expect(onError).toHaveBeenCalledExactlyOnceWith('Internet server error');
  });

  it('HTTP 503 with a refusal sentence (a service that is down) shows that sentence', async () => {
    const sentence = 'We could not send the email right now. Please try again in a few minutes.';
    const server = fakeServer({ status: 503, body: { success: false, info: sentence } });
    const { api, onError } = apiWith(server);
    const error = await rejectionOf(api.write('security/validate_email/', {}, z.unknown()));
    expect(error).toMatchObject({ message: sentence, status: 503 });
    expect(onError).toHaveBeenCalledExactlyOnceWith(sentence);
  });

  it.each([
    ['a body that is not JSON (HTTP 200)', { status: 200, raw: '<html>oops</html>' }],
    ['a body that is not JSON (HTTP 400)', { status: 400, raw: 'Bad Request' }],
    ['JSON without an envelope', { status: 200, body: { hello: 'world' } }],
    ['a refusal without a message', { status: 400, body: { success: false, info: '' } }],
    ['a refusal whose info is not text', { status: 400, body: { success: false, info: { detail: 'x' } } }],
    ['an empty body', { status: 200, raw: '' }],
  ] satisfies [string, Answer][])('%s rejects with "An unknown error occurred"', async (_, answer) => {
    const server = fakeServer(answer);
    const { api, onError } = apiWith(server);
    const error = await rejectionOf(api.write('a/', {}, z.unknown()));
    expect(error.message).toBe('An unknown error occurred');
    expect(onError).toHaveBeenCalledExactlyOnceWith('An unknown error occurred');
  });

  it('a network failure rejects with "An unknown error occurred"', async () => {
    const server = fakeServer('network-error');
    const { api } = apiWith(server);
    expect((await rejectionOf(api.write('a/', {}, z.unknown()))).message).toBe('An unknown error occurred');
  });
});

describe('api: read retries (3 retries, backoff from 1 s doubling, capped at 30 s)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  /** The pauses between consecutive requests. */
  const gaps = (sent: Sent[]) => sent.slice(1).map((request, i) => request.at - sent[i]!.at);

  it('a read that keeps failing with 5xx is tried 4 times, 1 s, 2 s and 4 s apart, then rejects "Internet server error"', async () => {
    const server = fakeServer({ status: 503, raw: 'Service Unavailable' });
    const { api, onError } = apiWith(server);
    const outcome = rejectionOf(api.read('user/overview/', {}, z.unknown()));

    await vi.advanceTimersByTimeAsync(999);
    expect(server.sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.sent).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(60_000);

    const error = await outcome;
    expect(server.sent).toHaveLength(4);
    expect(gaps(server.sent)).toEqual([1000, 2000, 4000]);
    expect(error.message).toBe('Internet server error');
    expect(onError).toHaveBeenCalledExactlyOnceWith('Internet server error');
  });

  it('network errors are retried the same way and end as "An unknown error occurred"', async () => {
    const server = fakeServer('network-error');
    const { api, onError } = apiWith(server);
    const outcome = rejectionOf(api.read('user/overview/', {}, z.unknown()));
    await vi.advanceTimersByTimeAsync(60_000);
    const error = await outcome;
    expect(server.sent).toHaveLength(4);
    expect(gaps(server.sent)).toEqual([1000, 2000, 4000]);
    expect(error.message).toBe('An unknown error occurred');
    expect(onError).toHaveBeenCalledOnce();
  });

  it('a read that recovers resolves with the good answer', async () => {
    const server = fakeServer('network-error', { status: 502, raw: 'Bad Gateway' }, ok({ enabled: false, recovery_codes_left: 0 }));
    const { api, onError } = apiWith(server);
    const result = api.read('security/two_factor/', { type: 'status' }, twoFactorStatusResponse);
    await vi.advanceTimersByTimeAsync(10_000);
    await expect(result).resolves.toEqual({ enabled: false, recovery_codes_left: 0 });
    expect(server.sent).toHaveLength(3);
    expect(onError).not.toHaveBeenCalled();
  });

  it('the pause doubles but never exceeds 30 s', async () => {
    const server = fakeServer({ status: 500, raw: '' });
    const { api } = apiWith(server, { retryDelayMs: 10_000 });
    const outcome = rejectionOf(api.read('a/', {}, z.unknown()));
    await vi.advanceTimersByTimeAsync(120_000);
    await outcome;
    expect(gaps(server.sent)).toEqual([10_000, 20_000, 30_000]);
  });

  it('the first pause can be shrunk (retryDelayMs) and still doubles', async () => {
    const server = fakeServer({ status: 500, raw: '' });
    const { api } = apiWith(server, { retryDelayMs: 5 });
    const outcome = rejectionOf(api.read('a/', {}, z.unknown()));
    await vi.advanceTimersByTimeAsync(100);
    await outcome;
    expect(gaps(server.sent)).toEqual([5, 10, 20]);
  });

  it('a refusal (4xx or success:false) is an answer, not a failure: it is not retried', async () => {
    const server = fakeServer(refused('Not allowed', 403));
    const { api } = apiWith(server);
    const outcome = rejectionOf(api.read('a/', {}, z.unknown()));
    await vi.advanceTimersByTimeAsync(60_000);
    expect((await outcome).message).toBe('Not allowed');
    expect(server.sent).toHaveLength(1);
  });

  it('writes are never retried: a 500 or a network failure is one request', async () => {
    const failing = fakeServer({ status: 500, raw: '' });
    const first = rejectionOf(apiWith(failing).api.write('market/trade/', { type: 'open' }, z.unknown()));
    const offline = fakeServer('network-error');
    const second = rejectionOf(apiWith(offline).api.write('market/trade/', { type: 'open' }, z.unknown()));
    await vi.advanceTimersByTimeAsync(60_000);
    expect((await first).message).toBe('Internet server error');
    expect((await second).message).toBe('An unknown error occurred');
    expect(failing.sent).toHaveLength(1);
    expect(offline.sent).toHaveLength(1);
  });
});

describe('account service (payloads of docs/api.md "Security calls")', () => {
  const user = { username: 'alice', email: 'alice@example.com', websocket_token: 'ws' };

  it('sends the device with login, two-factor login and register', async () => {
    const server = fakeServer(ok({ two_factor: true, token: 'interim', user: { username: 'alice' } }), ok({ token: 't', user }));
    const accounts = createAccountService(apiWith(server).api, 'Firefox on Linux (desktop)');
    await accounts.login({ username: 'alice', password: 'pw' });
    await accounts.twoFactorLogin({ code: '123456', token: 'interim' });
    await accounts.register({ email: 'a@b.co', username: 'alice', password: 'secret1', confirmPassword: 'secret1' });
    expect(server.sent.map(({ url, body }) => [url, body])).toEqual([
      ['/api/security/login/', { username: 'alice', password: 'pw', device: 'Firefox on Linux (desktop)' }],
      ['/api/security/two_factor_login/', { code: '123456', token: 'interim', device: 'Firefox on Linux (desktop)' }],
      [
        '/api/security/register/',
        { email: 'a@b.co', username: 'alice', password: 'secret1', confirmPassword: 'secret1', device: 'Firefox on Linux (desktop)' },
      ],
    ]);
  });

  it('sends the device id the browser keeps with every sign-in, read at each one, and never with logout', async () => {
    const server = fakeServer(ok({ two_factor: true, token: 'interim', user: { username: 'alice' } }), ok({ token: 't', user }), ok({ token: 't', user }), ok('bye'));
    let kept = 'first-device-id-0123456789';
    const accounts = createAccountService(apiWith(server, { getToken: () => 'tok' }).api, 'Firefox on Linux (desktop)', () => kept);
    await accounts.login({ username: 'alice', password: 'pw' });
    kept = 'second-device-id-012345678';
    await accounts.twoFactorLogin({ code: '123456', token: 'interim' });
    await accounts.register({ email: 'a@b.co', username: 'alice', password: 'secret1', confirmPassword: 'secret1' });
    await accounts.logout().catch(() => undefined);
    expect(server.sent.map(({ body }) => (body as { device_id?: string }).device_id)).toEqual([
      'first-device-id-0123456789',
      'second-device-id-012345678',
      'second-device-id-012345678',
      undefined,
    ]);
  });

  it('email codes and password resets carry their "type"', async () => {
    const server = fakeServer(ok('done'));
    const accounts = createAccountService(apiWith(server).api, 'd');
    await accounts.requestEmailCode({ email: 'a@b.co' });
    await accounts.verifyEmailCode({ email: 'a@b.co', code: '123456' });
    await accounts.requestPasswordReset({ email: 'a@b.co' });
    await accounts.resetPassword({ email: 'a@b.co', code: '123456', password: 'secret1', confirmPassword: 'secret1' });
    expect(server.sent.map(({ url, body }) => [url, (body as { type: string }).type])).toEqual([
      ['/api/security/validate_email/', 'request'],
      ['/api/security/validate_email/', 'verify'],
      ['/api/security/reset_password/', 'request'],
      ['/api/security/reset_password/', 'reset'],
    ]);
  });

  it('logout sends the device without a toast on failure', async () => {
    const server = fakeServer(refused('Already logged out'));
    const { api, onError } = apiWith(server, { getToken: () => 'tok' });
    await rejectionOf(createAccountService(api, 'Chrome on macOS (desktop)').logout());
    expect(server.sent[0]!.body).toEqual({ device: 'Chrome on macOS (desktop)' });
    expect(server.sent[0]!.headers.get('Authorization')).toBe('Bearer tok');
    expect(onError).not.toHaveBeenCalled();
  });

  it('the wallet list reads user/wallet/ {type: "list"} without a toast', async () => {
    const wallet = {
      id: 1,
      balance: '0.50000000',
      coin__price: '60000.00',
      coin__ticker: 'BTC',
      coin__label: 'Bitcoin',
      coin__image: '/coins/btc.svg',
      coin__decimal_places: 8,
    };
    const server = fakeServer(ok([wallet]), refused('Unknown wallet request', 400));
    const { api, onError } = apiWith(server);
    const accounts = createAccountService(api, 'd');
    await expect(accounts.wallets()).resolves.toEqual([wallet]);
    expect(server.sent[0]).toMatchObject({ url: '/api/user/wallet/', method: 'POST', body: { type: 'list' } });
    expect(server.sent[0]!.headers.has('X-No-Toast')).toBe(true);
    await rejectionOf(accounts.wallets());
    expect(onError).not.toHaveBeenCalled();
  });

  it('an overview failure yields null', async () => {
    const server = fakeServer(refused('No data'));
    const { api, onError } = apiWith(server);
    await expect(createAccountService(api, 'd').overview()).resolves.toBeNull();
    expect(onError).not.toHaveBeenCalled();
  });
});

describe('accounts: a sign-in attempt that is over', () => {
  const over = 'This sign-in has expired. Please enter your username and password again.';

  it('rejects the second factor with a SignInExpired the login chart knows, shown in words, and signs nobody out', async () => {
    const server = fakeServer(refused(over, 409));
    const { api, onError, onSessionExpired } = apiWith(server);
    const error = await rejectionOf(createAccountService(api, 'test').twoFactorLogin({ code: '123456', token: 'interim' }));
    expect(error).toBeInstanceOf(SignInExpired);
    expect(error).toMatchObject({ kind: 'signInExpired', message: over, status: 409 });
    expect(onError).toHaveBeenCalledExactlyOnceWith(over);
    expect(onSessionExpired).not.toHaveBeenCalled();
  });

  it('leaves a wrong code an ordinary refusal', async () => {
    const server = fakeServer(refused('Invalid authentication code.', 400));
    const { api } = apiWith(server);
    const error = await rejectionOf(createAccountService(api, 'test').twoFactorLogin({ code: '123456', token: 'interim' }));
    expect(error).not.toBeInstanceOf(SignInExpired);
    expect(error.status).toBe(400);
  });
});
