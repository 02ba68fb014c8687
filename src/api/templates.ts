import { createHash } from 'node:crypto';
import { ApiError } from '../errors.js';
import { ifNoneMatch } from '../http/etag.js';
import type { RequestContext, Route } from '../http/router.js';
import { RENDER_MEDIA_TYPES } from '../schema/openapi.js';
import { prepareRender, type QrConfigBody } from '../schema/prepare-render.js';
import { validate } from '../schema/validate.js';
import type { Service } from '../service.js';
import { CATALOGUE } from '../templates/catalogue.js';
import { sampleContent, type Template } from '../templates/check.js';
import { mergeOverTemplate } from '../templates/merge.js';
import { addBase64Assets, addRemoteImages, readRenderRequest } from './render-request.js';
import { renderAndReply } from './render-response.js';

/** Width of a preview: a catalogue thumbnail, small enough that all of them together stay a few MB. */
const PREVIEW_PX = 400;
/**
 * A preview only changes when the catalogue does, i.e. with a new release; a day without revalidation
 * spares browsers and CDNs, and the ETag lets them revalidate cheaply after that.
 */
const PREVIEW_CACHE_CONTROL = 'public, max-age=86400, immutable';

const previewPath = (id: string) => `/api/qr/templates/${id}/preview`;

/** A Host header used only to build links: a host name or IP literal with an optional port, nothing else. */
const HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * Where links to this service point: the configured public base URL, else the Host the client used (over
 * http, since TLS ends in front of the service when there is any), else a root-relative path.
 */
function linkBase(service: Service, ctx: RequestContext): string {
  if (service.config.publicBaseUrl !== undefined) return service.config.publicBaseUrl;
  // A relay comes from the consumer site, whose own host the client knows (it serves the previews too);
  // from anyone else the header is not trusted.
  const host = (ctx.customerId !== undefined && ctx.headers['x-forwarded-host']) || ctx.headers.host;
  return host !== undefined && HOST.test(host) ? `http://${host}` : '';
}

function templateOf(ctx: RequestContext): Template {
  const template = CATALOGUE.byId.get(ctx.params.id!);
  if (!template)
    throw new ApiError('TEMPLATE_NOT_FOUND', {
      message: `No template with id "${ctx.params.id}".`,
      field: 'templateId',
    });
  return template;
}

interface Preview {
  png: Uint8Array;
  etag: string;
}

/** The template over the request body, as POST /api/qr/generate renders it. */
function generateRoute(path: string, service: Service): Route {
  return {
    method: 'POST',
    path,
    doc: {
      summary:
        'Render a template with a partial QrConfig merged over it (objects merge key by key; what the body sets wins). `content` is required. Answers exactly as POST /api/qr/generate.',
      body: 'qrTemplateOverride',
      response: 'JSON with the file in qrBase64 and the verification, or the raw file when responseType is binary.',
      produces: RENDER_MEDIA_TYPES,
    },
    handler: async (ctx) => {
      const template = templateOf(ctx);
      const { body, assets } = await readRenderRequest(ctx);
      const overrides = validate<Record<string, unknown>>('qrTemplateOverride', body);
      const config = validate<QrConfigBody>('qrConfig', mergeOverTemplate(template.config, overrides));
      addBase64Assets(config, assets);
      const prepared = prepareRender(config, assets);
      await addRemoteImages(ctx.reply.abort.signal, service, config, assets);
      await renderAndReply(ctx, service, { prepared, assets, responseType: config.responseType });
    },
  };
}

/**
 * GET /api/qr/templates, POST /api/qr/templates/:id (and /:id/generate), GET /api/qr/templates/:id/preview.
 * Previews are public: see src/templates/README.md for why that is safe.
 */
export function templateRoutes(service: Service): Route[] {
  // One entry per template at most, kept for the life of the process: the catalogue bounds it.
  const previews = new Map<string, Promise<Preview>>();

  const renderPreview = async (t: Template): Promise<Preview> => {
    const { config } = prepareRender(
      { ...t.config, content: sampleContent(t.id), fileFormat: 'png', outputWidth: PREVIEW_PX },
      {},
    );
    // Not tied to the request's abort signal: the render is shared by every request for this preview.
    const { bytes } = await service.pool.render({ config, assets: {} });
    return { png: bytes, etag: `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 32)}"` };
  };

  const previewOf = (t: Template): Promise<Preview> => {
    let p = previews.get(t.id);
    if (!p) {
      p = renderPreview(t);
      previews.set(t.id, p);
      // A refusal (a busy pool) is not remembered; the next request tries again.
      p.catch(() => previews.delete(t.id));
    }
    return p;
  };

  return [
    {
      method: 'GET',
      path: '/api/qr/templates',
      doc: {
        summary:
          'The template catalogue: id, name, category, tags and preview URL of each. `?category=` filters, case-insensitively.',
        response: '{ success, count, templates: [{ id, name, category, tags, preview }] }',
      },
      handler: (ctx) => {
        const category = ctx.query.get('category')?.toLowerCase();
        const base = linkBase(service, ctx);
        const templates = CATALOGUE.templates
          .filter((t) => category === undefined || t.category.toLowerCase() === category)
          .map((t) => ({
            id: t.id,
            name: t.name,
            category: t.category,
            tags: t.tags,
            preview: base + previewPath(t.id),
          }));
        ctx.reply.json(200, { success: true, count: templates.length, templates });
      },
    },
    generateRoute('/api/qr/templates/:id', service),
    generateRoute('/api/qr/templates/:id/generate', service),
    {
      method: 'GET',
      path: previewPath(':id'),
      auth: 'public',
      doc: {
        summary: `The template rendered with sample content as a ${PREVIEW_PX} px PNG, for <img> tags: public (no proxy secret), cached, with an ETag.`,
        response: 'The PNG.',
        produces: ['image/png'],
      },
      handler: async (ctx) => {
        const { png, etag } = await previewOf(templateOf(ctx));
        const headers = { ETag: etag, 'Cache-Control': PREVIEW_CACHE_CONTROL };
        if (ifNoneMatch(ctx.headers['if-none-match'], etag)) ctx.reply.send(304, headers, '');
        else ctx.reply.send(200, { 'Content-Type': 'image/png', ...headers }, png);
      },
    },
  ];
}
