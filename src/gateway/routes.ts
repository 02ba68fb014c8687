import type { LimitClass } from '../config.js';
import type { RouteDoc } from '../http/router.js';
import { RENDER_MEDIA_TYPES } from '../schema/openapi.js';
import type { EdgeCaching } from './edge-cache.js';

/** One public gateway path and the engine path it is relayed to. */
export interface GatewayRoute {
  method: 'GET' | 'POST';
  /** Under /api/v1, with `:name` parameters. */
  path: string;
  /** The engine path, with the same parameters. */
  enginePath: string;
  limit: LimitClass;
  /** Parameter values the gateway opens, where it opens fewer than the engine. */
  allow?: Record<string, readonly string[]>;
  /** Spends one AI credit on success (reserved before the relay, released on failure). */
  spendsCredit?: boolean;
  /**
   * The engine's answer is a function of the request (edge-cache.ts), so the site may keep it. Not the
   * ping (uptime, counters), not server AI (an LLM's answer, and a credit).
   */
  edge?: EdgeCaching;
  /** What the site's OpenAPI document says of it: the engine route's body schema, by name, and examples. */
  doc: RouteDoc;
}

/** A body the quickstart and "Try it out" send: JSON back, the file in qrBase64. */
const GENERATE_EXAMPLE = { content: 'https://example.com', responseType: 'base64', fileFormat: 'png' };
const RENDER_ANSWERS = {
  400: 'The body is not a design the engine takes: INVALID_FIELD_VALUE, MISSING_REQUIRED_FIELD… with field.',
  401: 'missing_api_key, invalid_api_key.',
  402: 'studio_required: no active Studio pack.',
  422: 'QR_UNSCANNABLE: the design could not be made to scan (with strict off, it is delivered with warnings).',
  429: 'rate_limited, with Retry-After.',
};

/** Exactly the consumer gateway's route table (README, "Consumer gateway routes"). */
export const GATEWAY_ROUTES: readonly GatewayRoute[] = [
  {
    method: 'POST',
    path: '/api/v1/qr/generate',
    enginePath: '/api/qr/generate',
    limit: 'generation',
    edge: { fetchesImages: true },
    doc: {
      summary:
        'Renders a QrConfig (the design fields of the qrConfig schema; only content is required) as a verified PNG, JPG, WebP, SVG, PDF or EPS: JSON with qrBase64 and the verification by default, the file itself with responseType binary.',
      body: 'qrConfig',
      response: '{ success, qrBase64, mimeType, verification, … }, or the file (responseType binary).',
      produces: RENDER_MEDIA_TYPES,
      examples: {
        plain: { summary: 'A link, as JSON', value: GENERATE_EXAMPLE },
        styled: {
          summary: 'Rounded dots in navy, as an SVG file',
          value: {
            content: 'https://example.com/menu',
            moduleShape: 'dots',
            finderOuterShape: 'rounded',
            primaryColor: '#1B3A4B',
            fileFormat: 'svg',
            responseType: 'binary',
          },
        },
      },
      answers: RENDER_ANSWERS,
    },
  },
  {
    method: 'POST',
    path: '/api/v1/qr/ai/generate/server',
    enginePath: '/api/qr/ai/generate/server',
    limit: 'ai',
    spendsCredit: true,
    doc: {
      summary:
        'Designs a code from a prompt with the server’s AI, then renders and verifies it: one credit on success, none on failure. An Idempotency-Key header makes a retry safe.',
      body: 'aiGenerateManaged',
      response: '{ success, qrBase64, generatedConfig, aiExplanation, creditsRemaining, … }, or the file.',
      produces: RENDER_MEDIA_TYPES,
      examples: {
        prompt: {
          summary: 'A prompt and the content',
          value: { content: 'https://example.com', prompt: 'calm navy and cream for a law firm' },
        },
      },
      answers: { ...RENDER_ANSWERS, 402: 'studio_required; out_of_api_credits.', 502: 'AI_GENERATION_FAILED.' },
    },
  },
  {
    method: 'GET',
    path: '/api/v1/qr/templates',
    enginePath: '/api/qr/templates',
    limit: 'general',
    // Its preview links point at the Host the client called.
    edge: { vary: ['host'] },
    doc: {
      summary: 'The 118 templates (?category= narrows them), each with a preview link.',
      response: '{ success, count, templates: [{ id, name, category, tags, preview }] }',
      answers: { 401: 'missing_api_key, invalid_api_key.', 402: 'studio_required.' },
    },
  },
  {
    method: 'POST',
    path: '/api/v1/qr/templates/:id',
    enginePath: '/api/qr/templates/:id',
    limit: 'generation',
    edge: { fetchesImages: true },
    doc: {
      summary:
        'Renders a template with your content: { content, …overrides }, any QrConfig field set here winning over the template’s (objects merge key by key). Answered as POST /api/v1/qr/generate.',
      body: 'qrTemplateOverride',
      response: 'As POST /api/v1/qr/generate.',
      produces: RENDER_MEDIA_TYPES,
      params: { id: { example: 'boardroom-navy', description: 'A template id from GET /api/v1/qr/templates.' } },
      examples: { content: { summary: 'The template with a link', value: { content: 'https://example.com' } } },
      answers: { ...RENDER_ANSWERS, 404: 'TEMPLATE_NOT_FOUND.' },
    },
  },
  {
    method: 'POST',
    path: '/api/v1/qr/content/:type',
    enginePath: '/api/qr/content/:type',
    limit: 'general',
    allow: { type: ['wifi', 'vcard', 'geo'] },
    edge: {},
    doc: {
      summary: 'Builds the payload of a Wi-Fi network, a contact (vCard) or a place, to give as content.',
      body: ['content_wifi', 'content_vcard', 'content_geo'],
      response: '{ success, content }',
      params: { type: { example: 'wifi', description: 'wifi, vcard or geo; the body is that helper’s.' } },
      examples: {
        wifi: { summary: 'type wifi', value: { ssid: 'Café guests', password: 'espresso-2026', encryption: 'WPA' } },
        vcard: { summary: 'type vcard', value: { firstName: 'Ana', lastName: 'López', email: 'ana@example.com' } },
        geo: { summary: 'type geo', value: { latitude: 48.8584, longitude: 2.2945 } },
      },
      answers: { 400: 'A field the helper refuses, with field.', 404: 'NOT_FOUND: a type the gateway does not open.' },
    },
  },
  {
    method: 'GET',
    path: '/api/v1/qr/ai/providers',
    enginePath: '/api/qr/ai/providers',
    limit: 'general',
    edge: {},
    doc: {
      summary: 'The LLM providers the engine knows, with their default and recommended models.',
      response: '{ success, count, modelsNote, providers }',
    },
  },
  {
    method: 'GET',
    path: '/api/v1/ping',
    enginePath: '/api/ping',
    limit: 'general',
    doc: {
      summary: 'Whether your key works and the engine answers: its version, uptime and pool.',
      response: '{ success, status, version, uptimeSeconds, pool, … }',
      answers: { 401: 'missing_api_key, invalid_api_key.', 402: 'studio_required.' },
    },
  },
];

/** The engine path for a matched gateway route, its parameters encoded again. */
export const enginePathOf = (route: GatewayRoute, params: Record<string, string>): string =>
  route.enginePath.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
