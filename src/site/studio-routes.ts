import type { SiteSettings } from '../config.js';
import { ApiError } from '../errors.js';
import { type EngineClient, type RelayCall, relayCall } from '../gateway/engine-client.js';
import { jsonBytes } from '../http/json-body.js';
import type { RequestContext, Route } from '../http/router.js';
import { forward, readAll } from '../http/upstream.js';
import { FINDER_INNER_SHAPES, FINDER_OUTER_SHAPES, FRAME_STYLES, MODULE_SHAPES } from '../model/vocabulary.js';
import catalogue from '../templates/catalogue.json' with { type: 'json' };
import type { VisitorLimits } from './visitors.js';

export interface StudioDeps {
  engine: EngineClient;
  settings: SiteSettings;
  visitors: VisitorLimits;
}

const EMPTY = new Uint8Array(0);

/** The design fields the Studio shows as pictures, each name drawn by the engine on a small sample code. */
const PICKERS = {
  moduleShape: { names: MODULE_SHAPES, design: (name: string) => ({ moduleShape: name }) },
  finderOuterShape: { names: FINDER_OUTER_SHAPES, design: (name: string) => ({ finderOuterShape: name }) },
  finderInnerShape: { names: FINDER_INNER_SHAPES, design: (name: string) => ({ finderInnerShape: name }) },
  frameStyle: { names: FRAME_STYLES, design: (name: string) => ({ frameStyle: name, ctaText: 'SCAN ME' }) },
} as const;
type PickerField = keyof typeof PICKERS;

/**
 * Drawn as asked (strictScannability false: a corrected sample would show another shape than its name),
 * small, and the same for every visitor: rendered once per site process, then answered from memory.
 */
const pickerBody = (field: PickerField, name: string) =>
  JSON.stringify({
    content: 'qrfarm',
    ...PICKERS[field].design(name),
    outputWidth: 320,
    strictScannability: false,
    responseType: 'binary',
  });

/** Pickers change with a release only; a day without revalidation. */
const PICKER_CACHE = 'public, max-age=86400';

interface PickerImage {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

const templates = new Map(catalogue.map((t) => [t.id, t]));

/**
 * The Studio without an account: renders, content payloads and the template list relayed to an engine
 * like every consumer request (signed, for a visitor), each counted against the client's
 * address (QR_LIMIT_STUDIO per minute, 429 rate_limited past it), renders held by the engine to a preview's
 * rules (src/api/studio-preview.ts); template designs from the catalogue the
 * site ships with; and the shape pickers, drawn once by the engine.
 */
export function studioRoutes(deps: StudioDeps): Route[] {
  const relay = async (ctx: RequestContext, call: Pick<RelayCall, 'method' | 'path' | 'body'>) => {
    const full = relayCall({ ...call, headers: ctx.headers, caller: 'visitor', signal: ctx.reply.gone });
    await forward(ctx, await deps.engine.relay(full), deps.settings.maxOutputBytes);
  };
  const counted = async (ctx: RequestContext) => {
    for (const [k, v] of Object.entries(await deps.visitors.studioCall(ctx.remoteAddress))) ctx.reply.header(k, v);
  };
  const pickers = new Map<string, Promise<PickerImage>>();

  return [
    {
      method: 'POST',
      path: '/api/studio/render',
      auth: 'public',
      doc: {
        summary:
          'The Studio’s preview and download: a QrConfig rendered and verified by the engine, no key needed. A preview, not the API: JSON only, at most 1 MiB, images as uploads only (logoBase64, backgroundImageBase64; logoUrl and backgroundImageUrl are refused 400 naming the field), at most 1024 px a side (a larger outputWidth, outputHeight, printSize or pixelsPerModule is refused 400 naming the field), at most half the engine’s render workers (past them a render waits its turn, 503 SERVER_BUSY with Retry-After past the queue’s wait). Limited per client address (QR_LIMIT_STUDIO per minute, default 30).',
        body: 'qrConfig',
        response: 'As POST /api/qr/generate.',
        produces: ['image/png', 'image/jpeg', 'image/webp', 'image/svg+xml', 'application/pdf'],
      },
      handler: async (ctx) => {
        await counted(ctx);
        await relay(ctx, { method: 'POST', path: '/api/qr/generate', body: await jsonBytes(ctx) });
      },
    },
    {
      method: 'POST',
      path: '/api/studio/content/:type',
      auth: 'public',
      doc: {
        summary:
          'The Studio’s content helpers, every type of POST /api/qr/content/:type (wifi, vcard, geo, email, sms, tel, mecard, event, epc), no key needed. Limited per client address.',
        response: '{ success, content }',
      },
      handler: async (ctx) => {
        await counted(ctx);
        const path = `/api/qr/content/${encodeURIComponent(ctx.params.type!)}`;
        await relay(ctx, { method: 'POST', path, body: await jsonBytes(ctx) });
      },
    },
    {
      method: 'GET',
      path: '/api/studio/templates',
      auth: 'public',
      doc: {
        summary:
          'The template list of GET /api/qr/templates, ?category= filtering, no key needed. Limited per client address.',
        response: '{ success, count, templates: [{ id, name, category, tags, preview }] }',
      },
      handler: async (ctx) => {
        await counted(ctx);
        const category = ctx.query.get('category');
        const query = category === null ? '' : `?${new URLSearchParams({ category })}`;
        await relay(ctx, { method: 'GET', path: `/api/qr/templates${query}`, body: EMPTY });
      },
    },
    {
      method: 'GET',
      path: '/api/studio/templates/:id',
      auth: 'public',
      doc: {
        summary:
          'A template’s design (a QrConfig without content), for the Studio to load and edit: rendering it with content through /api/qr/generate gives what /api/qr/templates/:id gives.',
        response: '{ success, id, name, category, tags, config }',
      },
      handler: async (ctx) => {
        await counted(ctx);
        const t = templates.get(ctx.params.id!);
        if (t === undefined)
          throw new ApiError('TEMPLATE_NOT_FOUND', { message: `No template with id "${ctx.params.id}".`, field: 'id' });
        ctx.reply.json(200, { success: true, ...t });
      },
    },
    {
      method: 'GET',
      path: '/api/studio/shapes/:field/:name',
      auth: 'public',
      doc: {
        summary:
          'A picture of one design name, drawn by the engine on a small sample code: field is moduleShape, finderOuterShape, finderInnerShape or frameStyle. Public and cached (a fixed, bounded set).',
        response: 'The PNG.',
        produces: ['image/png'],
      },
      handler: async (ctx) => {
        const field = ctx.params.field as PickerField;
        const name = ctx.params.name!;
        const known = Object.hasOwn(PICKERS, field) && (PICKERS[field].names as readonly string[]).includes(name);
        if (!known) throw new ApiError('NOT_FOUND', { message: `No picture of ${field} "${name}".` });
        const key = `${field}/${name}`;
        let kept = pickers.get(key);
        if (kept === undefined) {
          kept = deps.engine
            .relay(
              relayCall({
                method: 'POST',
                path: '/api/qr/generate',
                headers: { 'content-type': 'application/json' },
                body: Buffer.from(pickerBody(field, name)),
                caller: 'visitor',
                // Shared by every visitor asking meanwhile: one leaving must not cancel it for the rest.
                signal: new AbortController().signal,
              }),
            )
            .then(async (r) => ({
              status: r.status,
              headers: r.headers,
              body: await readAll(r, deps.settings.maxOutputBytes),
            }));
          pickers.set(key, kept);
        }
        const answer = await kept.catch((e: unknown) => {
          pickers.delete(key);
          throw e;
        });
        if (answer.status !== 200) pickers.delete(key);
        const headers = answer.status === 200 ? { ...answer.headers, 'Cache-Control': PICKER_CACHE } : answer.headers;
        ctx.reply.send(answer.status, headers, answer.body);
      },
    },
  ];
}
