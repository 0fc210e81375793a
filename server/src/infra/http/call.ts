import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod/mini';
import { messageResponse } from '../../../../contracts/security.ts';

/**
 * One declaration per call: what the router registers (method, path, access, rate limits, body parsing, the
 * handler) and what the OpenAPI document says of it (tag, prose, request and answer schemas, refusals) are one
 * object, in one file, `server/src/<feature>/<name>.call.ts`. infra/http/calls.plugin.ts finds every such file
 * and registers its calls; server/src/openapi/document.ts describes the same list. docs/architecture.md
 * "Adding a call" is the recipe.
 */

export type Access =
  /** No credentials. */
  | 'public'
  /** The session token of login, two_factor_login or register. */
  | 'session'
  /** A moderator's session token. */
  | 'moderator'
  /** An operator's session token (docs/operators.md). */
  | 'operator'
  /** A session token of a role that trades: every role but the operator's, who holds nothing and trades nothing. */
  | 'trader'
  /** The websocket token (the session token works too), as pusher-js sends it. */
  | 'websocket'
  /** GET /metrics: `Authorization: Bearer <METRICS_TOKEN>`, or without METRICS_TOKEN a request straight from this machine. */
  | 'metrics'
  /** The Beams-compatible device API: the device id in the path is the credential. */
  | 'device'
  /** Pusher's HTTP API: a request signed with the app secret. */
  | 'signed';

export type Method = 'get' | 'post' | 'put' | 'delete';

/** A schema and its name under `components/schemas`. */
export interface Named<S extends z.core.$ZodType = z.core.$ZodType> {
  name: string;
  schema: S;
}

/** One possible `info` of a success, and the body `type`s that answer it (none: every body). */
export interface Info extends Named {
  when?: string[];
}

export type Answer =
  /** `{"success": true, "info": …}`, `info` one of these. */
  | { kind: 'envelope'; infos: Info[]; headers?: Record<string, string> }
  /** A JSON body that is not the envelope (what pusher-js, the Beams SDK or the `pusher` SDK expects). */
  | { kind: 'json'; body: Named; status?: number }
  /** No body at all. */
  | { kind: 'empty'; status: number }
  /** Not JSON: a page or a script. */
  | { kind: 'text'; contentType: string; what: string };

/** What a refusal looks like: the product's envelope, or the shape the Beams SDK or the `pusher` SDK reads. */
export type RefusalShape = 'envelope' | 'device-api' | 'trigger-api';

export interface Parameter {
  description: string;
  required?: boolean;
  schema?: z.core.$ZodType;
}

/**
 * What the OpenAPI document needs of a call. The packages (packages/realtime's trigger API, packages/push-service's
 * device API) declare their calls with the same fields, structurally, since they import nothing of the server.
 */
export interface CallDocumentation {
  method: Method;
  /** As a caller writes it, OpenAPI style (`{channel}`), with its trailing slash where the call has one. */
  path: string;
  tag: string;
  summary: string;
  description: string;
  access: Access;
  /** A bearer token besides what `access` implies: the Beams token that binds a device to its user. */
  credential?: 'beamsToken';
  /** Served only outside production, on a loopback HOST, to requests from this machine (docs/api.md "Development helpers"). */
  developmentOnly?: boolean;
  request?: Named & { contentTypes?: string[]; optional?: boolean };
  query?: Record<string, Parameter>;
  /** Descriptions of this call's path parameters where the shared ones (openapi/reference.ts) do not fit. */
  params?: Record<string, string>;
  answer: Answer;
  /** The shape of its refusals; left out: the product's envelope, as every call of the server's own refuses. */
  refusal?: RefusalShape;
  /**
   * The statuses it refuses with besides those every call of its kind has (openapi/reference.ts BASE_REFUSALS) and
   * 429 for a call with a budget (`rateLimit`); none when left out.
   */
  refusals?: number[];
  /** A budget of infra/rate-limit.plugin.ts, for the whole call or some of its `type`s: the document adds 429. */
  rateLimit?: { call?: RateLimitName; types?: Partial<Record<string, RateLimitName>> };
}

/** The per-address and per-trader budgets of infra/rate-limit.plugin.ts, by name. */
export type RateLimitName = 'security' | 'realtimeAuth' | 'tradeOpen' | 'chatMessage' | 'withdrawal';

/** What a handler gets: the body already parsed by the call's request schema. */
export interface CallContext<Body> {
  app: FastifyInstance;
  request: FastifyRequest;
  reply: FastifyReply;
  body: Body;
}

/** A call's request: its schema and name, the content types it takes besides JSON, whether it may be left out. */
type RequestOf = (Named & { contentTypes?: string[]; optional?: boolean }) | undefined;
type BodyOf<R> = R extends Named<infer S> ? z.output<S> : undefined;
type TypeOf<R> = BodyOf<R> extends { type: infer T extends string } ? T : never;

/** The server's calls: documentation, plus what the router needs. */
export interface Call<R extends RequestOf = RequestOf>
  extends Omit<CallDocumentation, 'request' | 'access'> {
  access: Exclude<Access, 'device' | 'signed'>;
  request?: R;
  /**
   * Budgets counted before anything else runs (`call`, before the body is read), or once the body says what it
   * asks for (`types`: the trade that opens, the chat message, the withdrawal preview).
   */
  rateLimit?: { call?: RateLimitName; types?: Partial<Record<TypeOf<R>, RateLimitName>> };
  /**
   * `false`: never compressed per request, because the answer carries a secret (a token, a TOTP secret, a channel
   * signature: infra/api-compression.plugin.ts SECRET_ANSWER says why) or is sent compressed once already.
   */
  compress?: false;
  /** Served only when this holds for the app (a development helper needs the dev outbox or the simulated chain). */
  servedWhen?: (app: FastifyInstance) => boolean;
  /** Run when the body fails its schema, before the refusal is sent (a withdrawal preview refused clears the last one). */
  onInvalidBody?: (context: CallContext<unknown>) => Promise<void>;
  /** What the call does; its answer is sent as it is (an envelope built with infra/http/reply.ts `ok`, or the call's own shape). */
  handle: (context: CallContext<BodyOf<R>>) => Promise<unknown>;
}

/** Keeps the handler's body typed by the request schema. */
export function defineCall<R extends RequestOf = undefined>(call: Call<R>): Call<R> {
  return call;
}

/**
 * A call of the account's security (sign-in, signup, reset, two-factor, the protections): every one draws on the one
 * per-address budget (RATE_LIMIT_PER_MINUTE), so a script trying passwords or codes is paced across all of them at once.
 */
export function defineSecurityCall<R extends RequestOf = undefined>(call: Omit<Call<R>, 'rateLimit'>): Call<R> {
  return { ...call, rateLimit: { call: 'security' } };
}

// ---- Helpers for writing a call's documentation -------------------------------------------------------------------

export const named = <S extends z.core.$ZodType>(name: string, schema: S): Named<S> => ({ name, schema });
export const info = (item: Named, ...when: string[]): Info => ({ ...item, ...(when.length ? { when } : {}) });
export const envelope = (...infos: Info[]): Answer => ({ kind: 'envelope', infos });
export const json = (name: string, schema: z.core.$ZodType): Answer => ({ kind: 'json', body: named(name, schema) });

/** The one-sentence answer many calls share. */
export const MESSAGE = named('Message', messageResponse);
