import { ERRORS } from '../errors.js';
import type { Route, RouteDoc } from '../http/router.js';
import { FILE_FORMATS } from '../model/vocabulary.js';
import { RELAY_HEADERS } from '../relay/signature.js';
import { batchRequestSchema } from './batch-request.js';
import { QR_DEFAULTS, qrConfigSchema } from './qr-config.js';
import { SCHEMAS } from './registry.js';

type Json = Record<string, unknown>;

/**
 * Inlines `#/definitions/*` references and drops draft-07 bookkeeping, so each registry schema stands on
 * its own under `components.schemas` (OpenAPI 3.1 speaks JSON Schema, but not our local definitions).
 */
export function standalone(schema: unknown, definitions: Json): unknown {
  if (Array.isArray(schema)) return schema.map((s) => standalone(s, definitions));
  if (schema === null || typeof schema !== 'object') return schema;
  const { $ref, $id: _id, definitions: _defs, ...rest } = schema as Json;
  const base =
    typeof $ref === 'string' && $ref.startsWith('#/definitions/')
      ? (definitions[$ref.slice('#/definitions/'.length)] as Json)
      : {};
  return Object.fromEntries(Object.entries({ ...base, ...rest }).map(([k, v]) => [k, standalone(v, definitions)]));
}

const errorEnvelope = {
  type: 'object',
  required: ['success', 'error', 'code'],
  properties: {
    success: { const: false },
    error: { type: 'string', description: 'Human-readable message.' },
    code: {
      type: 'string',
      enum: Object.keys(ERRORS),
      description: 'Machine-readable code; see the table in the README.',
    },
    field: { type: 'string', description: 'The offending input, dotted for nested fields.' },
  },
} as const;

/** What distinguishes the site's document from the engine's: its title, schemes and who may call what. */
export interface OpenApiChannel {
  title: string;
  description: string;
  /** Schemes by name; the first is the document's default. */
  securitySchemes: Record<string, Json>;
  /** Request body schemas of this channel beyond the shared registry, by name. */
  schemas?: Record<string, Json>;
  /** A route's security requirement, when it is not the document's default; `[]` for none. */
  securityOf(route: Route): Json[] | undefined;
}

/** The marketplace channel (the engine): the proxy secret, or a relay signature from the site. */
export const engineChannel = (secretHeader: string): OpenApiChannel => ({
  title: 'qrfarm',
  description: 'Verified QR-code rendering and AI design.',
  securitySchemes: {
    proxySecret: { type: 'apiKey', in: 'header', name: secretHeader },
    relaySignature: {
      type: 'apiKey',
      in: 'header',
      name: RELAY_HEADERS.signature,
      description: `A request relayed by the consumer site, signed with the shared secret; with ${RELAY_HEADERS.timestamp}, ${RELAY_HEADERS.nonce} and ${RELAY_HEADERS.customer} (README, "The relay").`,
    },
  },
  securityOf: (route) => (route.auth === 'public' ? [] : route.auth === 'relay' ? [{ relaySignature: [] }] : undefined),
});

/**
 * The OpenAPI 3.1 document of the routes a server actually serves, from the same schemas it validates
 * with; `channel` says whose (the engine's by default).
 */
export function buildOpenApi(
  routes: Route[],
  version: string,
  secretHeader: string,
  channel: OpenApiChannel = engineChannel(secretHeader),
): Json {
  // batchRequest is published, not compiled: the batch parser reads JSON and CSV bodies itself.
  const schemas: Json = { ErrorEnvelope: errorEnvelope, batchRequest: batchRequestSchema, ...channel.schemas };
  for (const [name, schema] of Object.entries(SCHEMAS))
    schemas[name] =
      name === 'qrConfig'
        ? publishedQrConfigSchema()
        : standalone(schema, ((schema as Json).definitions as Json) ?? {});

  const paths: Record<string, Json> = {};
  for (const route of routes) {
    if (!route.doc) continue;
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    const params = [...route.path.matchAll(/:(\w+)/g)].map(([, name]) => ({
      name: name!,
      in: 'path',
      required: true,
      schema: { type: 'string' },
      ...route.doc?.params?.[name!],
    }));
    const content: Json = { 'application/json': {} };
    const security = channel.securityOf(route);
    for (const type of route.doc.produces ?? []) content[type] = { schema: { type: 'string', format: 'binary' } };
    paths[path] ??= {};
    paths[path]![route.method.toLowerCase()] = {
      summary: route.doc.summary,
      ...(params.length && { parameters: params }),
      ...(security !== undefined && { security }),
      ...(route.doc.body && { requestBody: requestBodyOf(route.doc) }),
      responses: {
        [route.doc.status ?? 200]: { description: route.doc.response, content },
        ...Object.fromEntries(
          Object.entries(route.doc.answers ?? {}).map(([status, description]) => [
            status,
            {
              description,
              content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
            },
          ]),
        ),
        default: {
          description: 'Error',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
        },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: channel.title, version, description: channel.description },
    components: { schemas, securitySchemes: channel.securitySchemes },
    security: [{ [Object.keys(channel.securitySchemes)[0]!]: [] }],
    paths,
  };
}

export const RENDER_MEDIA_TYPES = Object.values(FILE_FORMATS);

/** A route's request body: its schema by reference (one of several, when it names several) and its examples. */
function requestBodyOf(doc: RouteDoc): Json {
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  const schema = typeof doc.body === 'string' ? ref(doc.body) : { oneOf: doc.body!.map(ref) };
  return {
    required: true,
    content: { 'application/json': { schema, ...(doc.examples && { examples: doc.examples }) } },
  };
}

/** The QrConfig schema as published: references inlined and every default written as `default`. */
export function publishedQrConfigSchema(): Json {
  const schema = standalone(qrConfigSchema, qrConfigSchema.definitions) as Json & { properties: Record<string, Json> };
  for (const [field, value] of Object.entries(QR_DEFAULTS))
    schema.properties[field] = { ...schema.properties[field], default: value };
  return { $schema: 'http://json-schema.org/draft-07/schema#', title: 'QrConfig', ...schema };
}
