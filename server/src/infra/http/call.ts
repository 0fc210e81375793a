import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod/mini';
import { apiNames } from '../../../../contracts/common.ts';
import { ok } from './reply.ts';

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
export type RateLimitName = 'security' | 'realtimeAuth' | 'tradeOpen' | 'chatMessage' | 'chatRead' | 'withdrawal';

/** What a handler gets: the body already parsed by the call's request schema. */
export interface CallContext<Body> {
  app: FastifyInstance;
  request: FastifyRequest;
  reply: FastifyReply;
  body: Body;
}

/** The server's calls as loaded (infra/http/calls.ts): documentation, plus what the router needs. */
export interface Call extends Omit<CallDocumentation, 'access'> {
  access: Exclude<Access, 'device' | 'signed'>;
  /**
   * Budgets counted before anything else runs (`call`, before the body is read), or once the body says what it
   * asks for (`types`: the trade that opens, the chat message, the withdrawal preview).
   */
  rateLimit?: { call?: RateLimitName; types?: Partial<Record<string, RateLimitName>> };
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
  handle: (context: CallContext<never>) => Promise<unknown>;
}

/**
 * A call's body as declared: a contract's schema, named in the document by contracts/common.ts `apiNames`; or that
 * schema with the content types it takes besides JSON and whether it may be left out.
 */
type RequestOf = z.core.$ZodType | { schema: z.core.$ZodType; contentTypes?: string[]; optional?: boolean } | undefined;
type BodyOf<R> = R extends z.core.$ZodType ? z.output<R> : R extends { schema: infer S extends z.core.$ZodType } ? z.output<S> : undefined;
type TypeOf<R> = BodyOf<R> extends { type: infer T extends string } ? T : never;

/** The payload each body `type` answers (`byType`). */
type Payloads = Record<string, z.core.$ZodType>;

/** Types only: what `byType` or `envelope` says each body `type` answers, for the handlers' return types. */
export declare const PAYLOADS: unique symbol;

/** An envelope whose `info` the body's `type` chooses: `byType`, or `envelope` (one payload whatever the type). */
export interface Enveloped<P extends Payloads = Payloads> extends Extract<Answer, { kind: 'envelope' }> {
  /** The contract's schema of a type's payload. */
  payloadOf: (type: string) => z.core.$ZodType;
  readonly [PAYLOADS]?: P;
}

/**
 * What a call does for each body `type`, as `handlers` returns it: the body of that type in, that type's payload
 * out, checked against its schema in `answer` (as infra/http/reply.ts `ok` checks it) and sent in the envelope.
 */
type HandlersOf<R, P extends Payloads> = {
  [T in TypeOf<R>]: (body: Extract<BodyOf<R>, { type: T }>) => Promise<T extends keyof P ? z.input<P[T]> : never>;
};

/** A call as its `*.call.ts` declares it: the body typed by the request schema, the answer by `byType`. */
export interface CallDeclaration<R extends RequestOf, P extends Payloads> extends Omit<Call, 'request' | 'answer' | 'rateLimit' | 'handle'> {
  request?: R;
  answer: Answer | Enveloped<P>;
  rateLimit?: { call?: RateLimitName; types?: Partial<Record<TypeOf<R>, RateLimitName>> };
  /** What the call does, as one handler; it returns the whole answer (`ok(schema, payload)`, or the call's own shape). */
  handle?: (context: CallContext<BodyOf<R>>) => Promise<unknown>;
  /**
   * Or, with a `byType` or `envelope` answer: given the request (what every type needs, the caller, worked out once), a handler
   * for each body `type`, which returns that type's payload alone.
   */
  handlers?: (context: CallContext<BodyOf<R>>) => HandlersOf<R, P>;
}

/** Keeps the handler's body typed by the request schema, and names the request by its contract. */
export function defineCall<R extends RequestOf = undefined, P extends Payloads = Payloads>(declaration: CallDeclaration<R, P>): Call {
  const { request, handle, handlers, ...call } = declaration;
  const payloadOf = 'payloadOf' in declaration.answer ? declaration.answer.payloadOf : undefined;
  if ((handle === undefined) === (handlers === undefined) || (handlers && !payloadOf)) {
    throw new Error(`${declaration.method.toUpperCase()} ${declaration.path}: declare either \`handle\`, or \`handlers\` with a \`byType\` or \`envelope\` answer`);
  }
  return {
    ...call,
    ...(request ? { request: '_zod' in request ? namedInContract(request) : { ...request, ...namedInContract(request.schema) } } : {}),
    handle: (handle ?? answerByType(handlers as unknown as TypeHandlers, payloadOf!)) as Call['handle'],
  };
}

/** `handlers` as the router runs them: the body's schema has already made sure its `type` is one of theirs. */
type TypeHandlers = (context: CallContext<{ type: string }>) => Record<string, (body: { type: string }) => Promise<unknown>>;

/** Each body `type` to its handler, and its payload into the envelope, checked against its schema. */
const answerByType =
  (handlers: TypeHandlers, payloadOf: (type: string) => z.core.$ZodType) =>
  async (context: CallContext<{ type: string }>) => {
    const { type } = context.body;
    return ok(payloadOf(type), await handlers(context)[type]!(context.body));
  };

/**
 * A call of the account's security (sign-in, signup, reset, two-factor, the protections): every one draws on the one
 * per-address budget (RATE_LIMIT_PER_MINUTE), so a script trying passwords or codes is paced across all of them at once.
 */
export function defineSecurityCall<R extends RequestOf = undefined, P extends Payloads = Payloads>(declaration: Omit<CallDeclaration<R, P>, 'rateLimit'>): Call {
  return defineCall<R, P>({ ...declaration, rateLimit: { call: 'security' } });
}

// ---- Helpers for writing a call's documentation -------------------------------------------------------------------

/** A contract's schema under the name contracts/ gave it (contracts/common.ts `apiNames`). */
function namedInContract(schema: z.core.$ZodType): Named {
  const name = apiNames.get(schema)?.id;
  if (!name) throw new Error('A schema in a call declaration has no name for the OpenAPI document: register it in contracts/ (`.register(apiNames, { id })`)');
  return { name, schema };
}

/** A schema outside contracts/ under a name of its own (the packages' refusal bodies, openapi/reference.ts). */
export const named = <S extends z.core.$ZodType>(name: string, schema: S): Named<S> => ({ name, schema });
/** One possible payload, and the body `type`s that answer it (none: every body). */
export const info = (schema: z.core.$ZodType, ...when: string[]): Info => ({ ...namedInContract(schema), ...(when.length ? { when } : {}) });
/** `{"success": true, "info": …}` with one payload, whatever the body. */
export const envelope = <S extends z.core.$ZodType>(schema: S): Enveloped<Record<string, S>> => ({ kind: 'envelope', infos: [info(schema)], payloadOf: () => schema });
/**
 * `{"success": true, "info": …}`, `info` the payload of the body's `type`: the types that share a schema are
 * documented as one payload (`{ enable: recoveryCodes, recovery_codes: recoveryCodes }`), in the order they come.
 */
export function byType<P extends Payloads>(payloads: P): Enveloped<P> {
  const typesOf = new Map<z.core.$ZodType, string[]>();
  for (const [type, schema] of Object.entries(payloads)) typesOf.set(schema, [...(typesOf.get(schema) ?? []), type]);
  // One schema for every type needs no `type` to tell the answers apart.
  const infos = typesOf.size === 1 ? [info(Object.values(payloads)[0]!)] : [...typesOf].map(([schema, types]) => info(schema, ...types));
  return { kind: 'envelope', infos, payloadOf: (type) => payloads[type]! };
}
/** A JSON body that is not the envelope. */
export const json = (schema: z.core.$ZodType): Answer => ({ kind: 'json', body: namedInContract(schema) });
