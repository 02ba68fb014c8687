import {
  callerAttempt,
  consumerServerAttempts,
  designQr,
  managedAttempts,
  MODELS_NOTE,
  providerList,
  type AiSettings,
  type Attempt,
  type DesignResult,
  type StylePreset,
} from '../ai/index.js';
import { ApiError, isApiError, type ErrorCode } from '../errors.js';
import { parseJsonBody } from '../http/json-body.js';
import type { RequestContext, Route } from '../http/router.js';
import type { DeliverDesign } from '../marketplace/index.js';
import type { Correction, RenderConfig } from '../model/render-config.js';
import { aiCalls } from '../observe/metrics.js';
import { AI_CALLER_FIELDS } from '../schema/ai-request.js';
import { RENDER_MEDIA_TYPES } from '../schema/openapi.js';
import { prepareRender, type QrConfigBody } from '../schema/prepare-render.js';
import { qrConfigSchema } from '../schema/qr-config.js';
import { validate } from '../schema/validate.js';
import type { Service } from '../service.js';
import { addBase64Assets, addRemoteImages } from './render-request.js';
import { renderAndReply } from './render-response.js';

/** A validated managed-endpoint body; the marketplace body adds the provider fields. */
type AiBody = Pick<
  QrConfigBody,
  | 'content'
  | 'fileFormat'
  | 'outputWidth'
  | 'printSize'
  | 'printCheck'
  | 'responseType'
  | 'logoUrl'
  | 'backgroundImageUrl'
  | 'centerText'
  | 'ctaText'
  | 'strictScannability'
> & {
  prompt: string;
  stylePreset?: StylePreset;
  creativity?: number;
  logoBase64?: string;
  backgroundImageBase64?: string;
};
type MarketplaceBody = AiBody & { llmProvider: string; llmApiKey: string; llmModel?: string };

/** What is merged over the model's design: the caller's fields always win, so a prompt cannot change what is encoded. */
const CALLER_KEYS = ['content', ...AI_CALLER_FIELDS] as const;

/** The provider fields' schema violations carry the contract's codes; a missing field stays MISSING_REQUIRED_FIELD. */
const PROVIDER_FIELD_CODES: Readonly<Partial<Record<string, ErrorCode>>> = {
  llmProvider: 'INVALID_LLM_PROVIDER',
  llmModel: 'INVALID_LLM_MODEL',
  llmApiKey: 'LLM_API_KEY_INVALID',
};

/** Response headers are read whole by clients (Node's limit is 16 KB for all of them together). */
const MAX_EXPLANATION_HEADER = 1024;
const MAX_CONFIG_HEADER = 8192;
/** A correction shows what the model sent, not all of it: a model can send kilobytes of junk. */
const MAX_FROM_CHARS = 120;
const MAX_REPORTED_DESIGN_CORRECTIONS = 20;

const DOC_RESPONSE =
  'The AI generation result: the rendered file (qrBase64) with generatedConfig, aiExplanation, llmProviderUsed and llmModelUsed; or the raw file with X-AI-* headers when responseType is binary.';

export const aiRoutes = (service: Service): Route[] => {
  const providers = providerList();
  return [
    {
      method: 'GET',
      path: '/api/qr/ai/providers',
      doc: {
        summary: 'The ten LLM providers accepted as llmProvider, with default and recommended models.',
        response: '{ success, count, modelsNote, providers }',
      },
      handler: (ctx) =>
        ctx.reply.json(200, { success: true, count: providers.length, modelsNote: MODELS_NOTE, providers }),
    },
    {
      method: 'POST',
      path: '/api/qr/ai/generate',
      doc: {
        summary: "Design a QR code from a prompt with the caller's own LLM key, then render and verify it.",
        body: 'aiGenerate',
        response: DOC_RESPONSE,
        produces: RENDER_MEDIA_TYPES,
      },
      handler: async (ctx) => {
        const body = validateMarketplace(parseJsonBody(await ctx.body()));
        await designAndRender(
          ctx,
          service,
          body,
          async (signal) => [await callerAttempt(body, service.config.ai, signal)],
          'caller',
        );
      },
    },
    serverChainRoute(service, {
      path: '/api/qr/ai/generate-managed',
      summary:
        "Design a QR code from a prompt with the server's own models (fallback chain), then render and verify it.",
      keys: 'managed',
      attempts: managedAttempts,
      unconfigured: 'Managed AI is not configured on this server: no provider of QR_MANAGED_CHAIN has a key.',
    }),
    // The consumer site relays it after checking the user's key and holding a credit; credits are the site's.
    serverChainRoute(service, {
      path: '/api/qr/ai/generate/server',
      summary:
        "Consumer-server AI, relayed by the consumer site: the managed body, designed by the server's consumer chain.",
      keys: 'server',
      attempts: consumerServerAttempts,
      unconfigured: 'Server AI is not configured on this server: no provider of QR_SERVER_CHAIN has a key.',
      auth: 'relay',
    }),
  ];
};

/**
 * An endpoint designing with one of the server's chains (the managed body). A chain with no key for any
 * of its providers is a configuration fault, said as such. Managed calls count against the caller's
 * marketplace plan: held before any LLM is asked, counted and billed only when a design is answered.
 */
function serverChainRoute(
  service: Service,
  o: {
    path: string;
    summary: string;
    keys: Exclude<Keys, 'caller'>;
    attempts: (settings: AiSettings) => Attempt[];
    unconfigured: string;
    auth?: Route['auth'];
  },
): Route {
  return {
    method: 'POST',
    path: o.path,
    ...(o.auth && { auth: o.auth }),
    doc: { summary: o.summary, body: 'aiGenerateManaged', response: DOC_RESPONSE, produces: RENDER_MEDIA_TYPES },
    handler: async (ctx) => {
      const body = validate<AiBody>('aiGenerateManaged', parseJsonBody(await ctx.body()));
      const attempts = o.attempts(service.config.ai);
      if (attempts.length === 0) throw new ApiError('AI_GENERATION_FAILED', { message: o.unconfigured });
      if (o.keys !== 'managed') {
        await designAndRender(ctx, service, body, () => attempts, o.keys);
        return;
      }
      await service.marketplace.managedAi.meter(ctx.headers, (deliver) =>
        designAndRender(ctx, service, body, () => attempts, o.keys, deliver),
      );
    },
  };
}

function validateMarketplace(body: unknown): MarketplaceBody {
  try {
    return validate<MarketplaceBody>('aiGenerate', body);
  } catch (e) {
    const code = isApiError(e) && e.field !== undefined ? PROVIDER_FIELD_CODES[e.field] : undefined;
    if (code === undefined || (e as ApiError).code === 'MISSING_REQUIRED_FIELD') throw e;
    throw new ApiError(code, { message: (e as ApiError).message, field: (e as ApiError).field });
  }
}

/** Whose keys design: the caller's (marketplace), or the server's, for the managed or consumer-server chain. */
type Keys = 'caller' | 'managed' | 'server';

/**
 * Prompt → design → merge under the caller's fields → the ordinary render path. The client going away
 * aborts the LLM call in flight (and the render); there is then nobody to answer.
 */
async function designAndRender(
  ctx: RequestContext,
  service: Service,
  body: AiBody,
  attempts: (signal: AbortSignal) => Attempt[] | Promise<Attempt[]>,
  keys: Keys,
  deliver?: DeliverDesign,
): Promise<void> {
  // Only the managed endpoint's answer says `managed: true`; both server chains treat a refused server key
  // as an operations fault, not the caller's.
  const managed = keys === 'managed';
  // A broken upload or an unreachable image URL is refused before the caller pays for a completion.
  const assets = await addRemoteImages(ctx.reply.abort.signal, service, body, addBase64Assets(body, {}));
  const signal = ctx.reply.abort.signal;
  const { perAttemptMs, totalMs } = service.config.ai;
  let design: DesignResult;
  try {
    const brief = { prompt: body.prompt, stylePreset: body.stylePreset, creativity: body.creativity };
    design = await designQr(brief, await attempts(signal), qrConfigSchema, {
      signal,
      managed: keys !== 'caller',
      perAttemptMs,
      totalMs,
    });
    aiCalls.labels(keys, design.providerId, 'designed').inc();
  } catch (e) {
    aiCalls.labels(keys, 'none', signal.aborted ? 'abandoned' : isApiError(e) ? e.code : 'failed').inc();
    if (signal.aborted) return;
    throw e;
  }

  const caller = Object.fromEntries(CALLER_KEYS.filter((k) => body[k] !== undefined).map((k) => [k, body[k]]));
  const merged = { ...design.config, ...caller, strictScannability: body.strictScannability ?? true };
  try {
    const config = validate<QrConfigBody>('qrConfig', merged);
    const prepared = prepareRender(config, assets);
    const generatedConfig = rendered(prepared.config, config);
    const extra = {
      generatedConfig,
      aiExplanation: design.explanation,
      llmProviderUsed: design.providerId,
      llmModelUsed: design.model,
      ...(managed && { managed: true }),
    };
    const headers: Record<string, string> = {
      'X-AI-Provider': design.providerId,
      // Model ids are letters, digits and . _ : / - (checked on the way in), all legal in a header.
      'X-AI-Model': design.model,
      'X-AI-Explanation': encodedPrefix(design.explanation, MAX_EXPLANATION_HEADER),
      ...(managed && { 'X-AI-Managed': 'true' }),
    };
    const configHeader = encodeURIComponent(JSON.stringify(generatedConfig));
    if (configHeader.length <= MAX_CONFIG_HEADER) headers['X-AI-Generated-Config'] = configHeader;

    const designCorrections = design.corrections.slice(0, MAX_REPORTED_DESIGN_CORRECTIONS).map(reported);
    const unlisted = design.corrections.length - designCorrections.length;
    await renderAndReply(ctx, service, {
      prepared: {
        ...prepared,
        corrections: [...designCorrections, ...prepared.corrections],
        warnings:
          unlisted > 0
            ? [...prepared.warnings, `${unlisted} more corrections to the AI's design are not listed.`]
            : prepared.warnings,
      },
      assets,
      responseType: body.responseType,
      extra,
      extraHeaders: headers,
      beforeReply: deliver,
    });
  } catch (e) {
    throw blameDesign(e, design.config);
  }
}

/**
 * The QrConfig that was rendered, reusable as is with POST /api/qr/generate: every default filled in, the
 * image URLs kept (the render config leaves them to the main thread), no responseType and no base64
 * payloads (the caller has those).
 */
function rendered(config: RenderConfig, body: QrConfigBody): Record<string, unknown> {
  const { responseType: _answerForm, content, ...fields } = config as RenderConfig & { responseType?: unknown };
  return {
    content,
    ...fields,
    ...(body.logoUrl !== undefined && { logoUrl: body.logoUrl }),
    ...(body.backgroundImageUrl !== undefined && { backgroundImageUrl: body.backgroundImageUrl }),
  };
}

/**
 * An engine refusal of a field the model chose is the design's fault, not the caller's: AI_CONFIG_INVALID
 * (retry with lower creativity), without a `field` the caller never sent. Low contrast always is, since the
 * caller cannot set colours on these endpoints. An unscannable result stays QR_UNSCANNABLE.
 */
function blameDesign(e: unknown, design: Record<string, unknown>): unknown {
  if (!isApiError(e)) return e;
  const top = e.field?.split(/[.[]/)[0];
  const chosenByModel =
    e.code === 'LOW_CONTRAST' || (e.status === 400 && top !== undefined && Object.hasOwn(design, top));
  return chosenByModel
    ? new ApiError('AI_CONFIG_INVALID', {
        message: `The AI's design was refused: ${e.message} Retry with lower creativity.`,
      })
    : e;
}

function reported(c: Correction): Correction {
  const text = typeof c.from === 'string' ? c.from : (JSON.stringify(c.from) ?? String(c.from));
  return {
    field: c.field,
    from: text.length > MAX_FROM_CHARS ? `${text.slice(0, MAX_FROM_CHARS)}…` : c.from,
    to: c.to,
    reason: c.reason,
  };
}

/** `text` URI-encoded, cut between characters so the result is at most `max` long. */
function encodedPrefix(text: string, max: number): string {
  let out = '';
  for (const ch of text) {
    // A lone surrogate (JSON allows one) would make encodeURIComponent throw; it becomes U+FFFD.
    const encoded = /^[\uD800-\uDFFF]$/.test(ch) ? '%EF%BF%BD' : encodeURIComponent(ch);
    if (out.length + encoded.length > max) break;
    out += encoded;
  }
  return out;
}
