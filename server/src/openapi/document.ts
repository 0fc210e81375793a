import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod/mini';
import { envelope, refusal } from '../../../contracts/common.ts';
import type { Access, CallDocumentation as Call, Info, Named } from '../infra/http/call.ts';
import { BASE_REFUSALS, PATH_PARAMETERS, REFUSAL_SCHEMAS, STATUS_MEANINGS } from './reference.ts';
import { DEVICE_API_TAG } from '../../../packages/push-service/index.ts';
import { TRIGGER_API_TAG } from '../../../packages/realtime/index.ts';
import { ROOT } from '../infra/root.ts';

/**
 * The OpenAPI 3.1 document of the calls as declared (GET /api/openapi.json): the server's `*.call.ts` and the
 * packages' own lists (infra/http/call.ts). Every schema in it is zod's own JSON Schema
 * output of a contract (`z.toJSONSchema`): request bodies as the server takes them (`io: 'input'`: defaults
 * optional, text before trimming), answers as it sends them (`io: 'output'`). A schema zod cannot express in
 * JSON Schema (a transform's output) becomes `{}` rather than a guess.
 */

export type JsonSchema = Record<string, unknown>;
type Io = 'input' | 'output';

/** zod's JSON Schema of a contract, without `$schema`: the document's dialect (JSON Schema 2020-12) applies. */
export function jsonSchemaOf(schema: z.core.$ZodType, io: Io): JsonSchema {
  const generated = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' });
  const { $schema: _dialect, ...rest } = JSON.parse(JSON.stringify(generated)) as JsonSchema;
  return rest;
}

const SECURITY_SCHEMES = {
  session: {
    type: 'http',
    scheme: 'bearer',
    description:
      'The `token` that security/login/, security/two_factor_login/ or security/register/ answer, sent as `Authorization: Bearer <token>`, as the web app sends it. An unknown, revoked, idle or interim two-factor token is refused with 401 "Session expired".',
  },
  websocketToken: {
    type: 'http',
    scheme: 'bearer',
    description: "`user.websocket_token` of the sign-in answer, as pusher-js sends it (the session token works too).",
  },
  beamsToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'The token GET /api/push/beams-auth/ answers (HS256, 24 hours, naming the session it was issued to).',
  },
  metricsToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      'The server\'s `METRICS_TOKEN`, sent as `Authorization: Bearer <METRICS_TOKEN>` (docs/operators.md "Monitoring"). Without METRICS_TOKEN set, a request straight from the server\'s own machine needs none.',
  },
  pusherSignature: {
    type: 'apiKey',
    in: 'query',
    name: 'auth_signature',
    description:
      'Pusher\'s request signature (docs/pusher-and-beams.md "Request signing"), as the `pusher` SDK writes it: hex HMAC-SHA256 with the app secret of `METHOD\\nPATH\\nSORTED_QUERY`, SORTED_QUERY being every other query parameter (`auth_key`, `auth_timestamp`, `auth_version`, `body_md5`, …), keys lower-cased and sorted, values not encoded.',
  },
} as const;
type SchemeName = keyof typeof SECURITY_SCHEMES;

const SECURITY_OF: Record<Access, SchemeName[]> = {
  public: [],
  session: ['session'],
  moderator: ['session'],
  operator: ['session'],
  trader: ['session'],
  websocket: ['websocketToken'],
  metrics: ['metricsToken'],
  device: [],
  signed: ['pusherSignature'],
};

const ACCESS_NOTES: Record<Access, string> = {
  public: 'Public: no token.',
  session: 'Signed in: `Authorization: Bearer <token>`.',
  moderator: 'Signed in as a moderator: `Authorization: Bearer <token>` of a moderator\'s session.',
  operator: 'Signed in as an operator: `Authorization: Bearer <token>` of an operator\'s session.',
  trader: 'Signed in with a role that trades: `Authorization: Bearer <token>`; an operator\'s session is refused with 403.',
  websocket: 'The websocket token: `Authorization: Bearer <websocket_token>`.',
  metrics:
    'The metrics token: `Authorization: Bearer <METRICS_TOKEN>`, from the server\'s machine too; without METRICS_TOKEN set, only a request straight from that machine (no proxy header), and none while TRUST_PROXY is set.',
  device: 'No session: the device id in the path is the credential. Not served with hosted Beams (`BEAMS_INSTANCE_ID`).',
  signed: 'Signed with the realtime app secret. Not served with a hosted Pusher (`PUSHER_HOST`, `PUSHER_CLUSTER`).',
};

const DEVELOPMENT_ONLY_NOTE =
  '**Development only**: not served with `NODE_ENV=production` nor on a non-loopback `HOST`, and answers 404 to any request that is not from this machine or carries a proxy header.';

const TAGS = [
  { name: 'System', description: 'Health and readiness, the browser configuration, and this document.' },
  { name: 'Security', description: 'Sign-in, signup, password reset and two-factor authentication. Shared per-address rate limit (429).' },
  { name: 'Account protections', description: 'The sign-in history, the anti-phishing code and the withdrawal allowlist of /settings/security.' },
  { name: 'User', description: "The signed-in trader's dashboard, wallets and notifications." },
  { name: 'Market', description: 'Coins, offers, trades and trader profiles.' },
  { name: 'Chat', description: 'Trade conversations.' },
  { name: 'Moderation', description: 'The dispute desk (moderators only).' },
  { name: 'Operator console', description: "Running the platform (operators only): the overview, traders, withdrawal review, the audit log." },
  { name: 'Realtime', description: 'Channel authorization for pusher-js. The websocket itself (Pusher Channels protocol 7) is at `/app/{key}`, outside this document.' },
  { name: 'Web push', description: 'The Beams token that binds a browser to its trader.' },
  // The packages' own groups, as they describe them.
  DEVICE_API_TAG,
  TRIGGER_API_TAG,
  { name: 'Development helpers', description: 'Only outside production, on a loopback HOST, for requests from this machine.' },
];

const DESCRIPTION = `The HTTP API of Peerex, generated from the zod schemas in \`contracts/\` that the server validates every body with and the web app parses every answer with. The prose is in docs/api.md.

- Every product call is \`POST /api/<path>/\` with a JSON body; the trailing slash is optional.
- Calls with several actions are chosen by the body's \`type\`: the request is a union, and the answer's \`info\` is the payload of that \`type\`. An unknown \`type\` is a 400 that lists the allowed ones.
- Every answer is \`{"success": boolean, "info": …}\`: on success \`info\` is the payload, on refusal one sentence for the person at the screen, never internals. Money, prices and rates are decimal strings; timestamps ISO 8601.
- Signed-in calls need \`Authorization: Bearer <token>\`; without a live session they answer 401 \`{"success":false,"info":"Session expired"}\`.`;

/** `/api/market/chat/{channel}/` → `postApiMarketChatByChannel`. */
function operationIdOf(call: Call): string {
  const words = call.path
    .split(/[/._-]+/)
    .filter(Boolean)
    .map((word) => (word.startsWith('{') ? `By${word.slice(1, 2).toUpperCase()}${word.slice(2, -1)}` : word));
  return call.method + words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('');
}

/** Builds the document; a second schema under a name already taken is a declaration bug and throws. */
export function buildOpenApiDocument(options: { version: string; calls: readonly Call[] }) {
  const schemas: Record<string, JsonSchema> = {};
  const registered = new Map<string, { schema: z.core.$ZodType; io: Io }>();

  /** A `$ref` to the named schema, converting it the first time. */
  const ref = (item: Named, io: Io): JsonSchema => {
    const known = registered.get(item.name);
    if (known && (known.schema !== item.schema || known.io !== io)) throw new Error(`Two schemas are named ${item.name} in the declared calls`);
    if (!known) {
      registered.set(item.name, { schema: item.schema, io });
      schemas[item.name] = jsonSchemaOf(item.schema, io);
    }
    return { $ref: `#/components/schemas/${item.name}` };
  };

  const refusalShapeOf = (call: Call) => call.refusal ?? 'envelope';
  const refusalSchemaOf = (call: Call) => {
    const shape = refusalShapeOf(call);
    return shape === 'envelope' ? ref({ name: 'Refusal', schema: refusal }, 'output') : ref(REFUSAL_SCHEMAS[shape], 'output');
  };

  /** The success envelope of the contracts (`envelope()`), with `info` one of the call's payloads. */
  const envelopeOf = (infos: Info[]): JsonSchema => {
    const shell = jsonSchemaOf(envelope(z.unknown()), 'output') as { properties: Record<string, JsonSchema> };
    const payloads = infos.map((item) => {
      const target = ref(item, 'output');
      return item.when ? { ...target, description: `The answer to ${item.when.map((type) => `\`type: "${type}"\``).join(', ')}.` } : target;
    });
    return { ...shell, properties: { ...shell.properties, info: payloads.length === 1 ? payloads[0] : { oneOf: payloads } } };
  };

  const successOf = (call: Call): Record<string, unknown> => {
    const answer = call.answer;
    switch (answer.kind) {
      case 'envelope':
        return {
          200: {
            description: '`success: true`, `info` the payload.',
            ...(answer.headers
              ? { headers: Object.fromEntries(Object.entries(answer.headers).map(([name, description]) => [name, { description, schema: { type: 'string' } }])) }
              : {}),
            content: { 'application/json': { schema: envelopeOf(answer.infos) } },
          },
        };
      case 'json':
        return { [answer.status ?? 200]: { description: 'Success (not enveloped).', content: { 'application/json': { schema: ref(answer.body, 'output') } } } };
      case 'empty':
        return { [answer.status]: { description: 'No content.' } };
      case 'text':
        return { 200: { description: answer.what, content: { [answer.contentType]: { schema: { type: 'string' } } } } };
    }
  };

  const refusalStatusesOf = (call: Call): number[] => {
    const statuses = new Set([...BASE_REFUSALS[refusalShapeOf(call)], ...(call.refusals ?? [])]);
    if (call.rateLimit) statuses.add(429);
    if (call.access !== 'public' && call.access !== 'device' && call.access !== 'signed') statuses.add(401);
    if (call.access === 'trader') statuses.add(403);
    // Bodies over 64 KiB (the device API: its own smaller limits, listed per call).
    if (call.request && refusalShapeOf(call) === 'envelope') statuses.add(413);
    return [...statuses].sort((a, b) => a - b);
  };

  const parametersOf = (call: Call) => {
    const inPath = [...call.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as string);
    return [
      ...inPath.map((name) => ({
        name,
        in: 'path',
        required: true,
        description: call.params?.[name] ?? PATH_PARAMETERS[name] ?? name,
        schema: { type: 'string' },
      })),
      ...Object.entries(call.query ?? {}).map(([name, parameter]) => ({
        name,
        in: 'query',
        required: parameter.required ?? false,
        description: parameter.description,
        schema: parameter.schema ? jsonSchemaOf(parameter.schema, 'input') : { type: 'string' },
      })),
    ];
  };

  const operationOf = (call: Call) => {
    const scheme: SchemeName[] = call.credential ? [call.credential] : SECURITY_OF[call.access];
    const parameters = parametersOf(call);
    const request = call.request;
    return {
      operationId: operationIdOf(call),
      tags: [call.tag],
      summary: call.summary,
      description: [call.developmentOnly ? DEVELOPMENT_ONLY_NOTE : undefined, call.description, `*${ACCESS_NOTES[call.access]}*`].filter(Boolean).join('\n\n'),
      'x-access': call.access,
      ...(call.developmentOnly ? { 'x-development-only': true } : {}),
      security: scheme.map((name) => ({ [name]: [] })),
      ...(parameters.length ? { parameters } : {}),
      ...(request
        ? {
            requestBody: {
              required: !request.optional,
              content: Object.fromEntries((request.contentTypes ?? ['application/json']).map((type) => [type, { schema: ref(request, 'input') }])),
            },
          }
        : {}),
      responses: {
        ...successOf(call),
        ...Object.fromEntries(
          refusalStatusesOf(call).map((status) => [
            status,
            { description: STATUS_MEANINGS[status] ?? 'Refused.', content: { 'application/json': { schema: refusalSchemaOf(call) } } },
          ]),
        ),
      },
    };
  };

  const paths: Record<string, Record<string, unknown>> = {};
  for (const call of options.calls) {
    const operations = (paths[call.path] ??= {});
    if (operations[call.method]) throw new Error(`${call.method.toUpperCase()} ${call.path} is declared twice`);
    operations[call.method] = operationOf(call);
  }

  return {
    openapi: '3.1.1',
    info: { title: 'Peerex API', version: options.version, description: DESCRIPTION },
    // Relative: the server that serves the document serves the calls, whatever its origin.
    servers: [{ url: '/', description: 'This server' }],
    tags: TAGS,
    paths,
    components: { schemas, securitySchemes: SECURITY_SCHEMES },
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;

/** The product's version, as package.json gives it. */
export function productVersion(): string {
  return (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}
