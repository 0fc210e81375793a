import wretch, { type WretchError } from 'wretch';
import { retry } from 'wretch/middlewares';
import { z } from 'zod/mini';

/** What the trader reads when a call fails without a sentence of its own ("Internet" is the product's wording). */
export const apiMessages = {
  unknown: 'An unknown error occurred',
  serverError: 'Internet server error',
} as const;

/**
 * A refused or failed call: `message` is what the trader may be shown; `code` is the server's stable code of
 * the refusal (docs/api.md "Refusal codes") for deciding what to do, absent when the call failed without one.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  constructor(message: string, status: number, code?: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }
}

export type ApiOptions = {
  /** Where the API lives, e.g. `/api/`. */
  baseUrl: string;
  getToken: () => string | null;
  /** A 401 or a "Session expired"/"L101" envelope: the caller signs the trader out. */
  onSessionExpired: () => void;
  /** A red toast for a refusal; not called for calls marked `noToast`. */
  onError: (message: string) => void;
  /** First retry delay of reads; it doubles up to `maxRetryDelayMs`. Tests shrink it. */
  retryDelayMs?: number;
  maxRetryDelayMs?: number;
  fetch?: typeof fetch;
};

export type CallOptions = { noToast?: boolean };

const READ_RETRIES = 3;
const SESSION_EXPIRED = /Session expired|L101/;
/** The server's code for a session that is over (docs/api.md "Refusal codes"). */
const SESSION_EXPIRED_CODE = 'session.expired';

type Envelope = { success: boolean; info: unknown; code?: unknown };

function isEnvelope(value: unknown): value is Envelope {
  return typeof value === 'object' && value !== null && 'success' in value && 'info' in value;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function createApi(options: ApiOptions) {
  const retryDelayMs = options.retryDelayMs ?? 1000;
  const maxRetryDelayMs = options.maxRetryDelayMs ?? 30_000;
  const base = wretch(options.baseUrl, { headers: { Accept: 'application/json' } }).fetchPolyfill(
    options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args)),
  );
  // Reads are safe to repeat: a network failure or a 5xx is tried again, 1 s then doubling, capped.
  const retrying = base.middlewares([
    retry({
      delayTimer: retryDelayMs,
      delayRamp: (delay, attempt) => Math.min(delay * 2 ** (attempt - 1), maxRetryDelayMs),
      maxAttempts: READ_RETRIES,
      retryOnNetworkError: true,
      // Once the retries are spent, the last 5xx is judged like any answer ("Internet server error"),
      // not replaced by the middleware's own "Number of attempts exceeded." error.
      resolveWithLatestResponse: true,
      until: (response) => Boolean(response && response.status < 500),
    }),
  ]);

  function refuse(message: string, status: number, callOptions: CallOptions, code?: string): never {
    if (!callOptions.noToast) options.onError(message);
    throw new ApiError(message, status, code);
  }

  async function call<T extends z.core.$ZodType>(
    canRetry: boolean,
    path: string,
    body: unknown,
    schema: T,
    callOptions: CallOptions = {},
  ): Promise<{ info: z.output<T>; headers: Headers }> {
    const token = options.getToken();
    let request = (canRetry ? retrying : base).url(path.replace(/^\//, '')).json(body ?? {});
    if (token) request = request.auth(`Bearer ${token}`);
    if (callOptions.noToast) request = request.headers({ 'X-No-Toast': '1' });

    let status: number;
    let text: string;
    let headers = new Headers();
    try {
      const response = await request.post().res();
      status = response.status;
      headers = response.headers;
      text = await response.text();
    } catch (error) {
      const failed = error as Partial<WretchError>;
      if (typeof failed.status !== 'number') refuse(apiMessages.unknown, 0, callOptions);
      status = failed.status;
      text = failed.message ?? '';
    }

    const info = judged(status, text, callOptions);
    const parsed = z.safeParse(schema, info);
    if (!parsed.success) refuse(apiMessages.unknown, status, callOptions);
    return { info: parsed.data as z.output<T>, headers };
  }

  /** The envelope's `info` of an answer, or the refusal it is (thrown, with its toast unless `noToast`). */
  function judged(status: number, text: string, callOptions: CallOptions): unknown {
    const payload = parseJson(text);
    const info = isEnvelope(payload) ? payload.info : undefined;
    const message = typeof info === 'string' && info.trim() ? info : undefined;
    // A refusal's code, when the server sent one; the sentence stays what the trader reads.
    const code = isEnvelope(payload) && !payload.success && typeof payload.code === 'string' ? payload.code : undefined;

    const sessionOver = code === SESSION_EXPIRED_CODE || (message !== undefined && SESSION_EXPIRED.test(message));
    if (status === 401 || (isEnvelope(payload) && !payload.success && sessionOver)) {
      options.onSessionExpired();
      throw new ApiError(message ?? 'Session expired', 401, code);
    }
    // HTTP 500 is a bug on the server: "Internet server error". A service that is down for now (503: the mail
    // server) words its refusal, and the trader reads it like any other refusal.
    const worded = status !== 500 && isEnvelope(payload) && !payload.success && message !== undefined;
    if (status >= 500 && !worded) refuse(apiMessages.serverError, status, callOptions, code);
    if (!isEnvelope(payload)) refuse(apiMessages.unknown, status, callOptions);
    if (!payload.success || status >= 400) refuse(message ?? apiMessages.unknown, status, callOptions, code);
    return payload.info;
  }

  return {
    /** A call that changes nothing: retried on network failure and 5xx. */
    read: <T extends z.core.$ZodType>(path: string, body: unknown, schema: T, callOptions?: CallOptions) =>
      call(true, path, body, schema, callOptions).then(({ info }) => info),
    /** A call that changes something: never retried, so nothing happens twice. */
    write: <T extends z.core.$ZodType>(path: string, body: unknown, schema: T, callOptions?: CallOptions) =>
      call(false, path, body, schema, callOptions).then(({ info }) => info),
    /**
     * A `write` whose answer also names something in one response header, the envelope's `info` staying
     * what the trader reads (the trade `open` names the new trade's channel in `X-Trade-Channel`).
     * `header` is null when the answer has none.
     */
    writeWithHeader: <T extends z.core.$ZodType>(path: string, body: unknown, schema: T, header: string, callOptions?: CallOptions) =>
      call(false, path, body, schema, callOptions).then(({ info, headers }) => ({ info, header: headers.get(header) })),
    /**
     * For a call of another shape (the console's CSV downloads, src/services/operator.ts, only ever made signed in):
     * a request of this API with the session's token, and the judgement of its answer, which throws a refusal as
     * any call's does (signing out on a 401).
     */
    request: (path: string) => base.url(path).auth(`Bearer ${options.getToken()}`),
    judged,
  };
}

export type Api = ReturnType<typeof createApi>;
