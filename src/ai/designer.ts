import { ApiError } from '../errors.js';
import type { Correction } from '../model/render-config.js';
import { runChain, type Attempt, type ChainOptions } from './chain.js';
import { cleanConfig } from './clean-config.js';
import { extractJsonObject } from './json-extract.js';
import type { JsonSchema } from './json-schema.js';
import type { ProviderId } from './providers.js';
import { responseSchemas } from './response-schema.js';
import {
  buildSystemPrompt,
  buildUserPrompt,
  DEFAULT_STYLE_PRESET,
  STYLE_PRESETS,
  VOCABULARY,
  type StylePreset,
} from './system-prompt.js';
import type { LlmRequest } from './wire/http.js';

export interface DesignInput {
  prompt: string;
  /** Default `luxury`. */
  stylePreset?: StylePreset;
  /** 0–1, default 0.5: sampling temperature and how bold the brief asks the model to be. */
  creativity?: number;
}

export interface DesignResult {
  /** The cleaned design fields only; the caller's fields (content, logo, output…) are the route's to merge. */
  config: Record<string, unknown>;
  explanation: string;
  corrections: Correction[];
  providerId: ProviderId;
  model: string;
}

/** Generous enough for thinking models, whose reasoning counts against the same limit. */
const MAX_OUTPUT_TOKENS = 8192;
const SCHEMA_NAME = 'qr_design';
const MAX_EXPLANATION = 2000;

/** Temperature 0.2 at creativity 0, 1.1 at 1; vendors clamp it further (quirks). */
export const temperatureFor = (creativity: number): number => 0.2 + creativity * 0.9;

interface Prepared {
  schema: JsonSchema;
  system: string;
  response: LlmRequest['schema'];
}

/** The schema and the prompts built from it depend only on the schema object, so they are built once per schema. */
const prepared = new WeakMap<JsonSchema, Prepared>();

function prepare(schema: JsonSchema): Prepared {
  let p = prepared.get(schema);
  if (!p) {
    const withShapes = withVocabulary(schema);
    p = { schema: withShapes, system: buildSystemPrompt(withShapes), response: responseSchemas(withShapes) };
    prepared.set(schema, p);
  }
  return p;
}

/**
 * The QrConfig schema with the shape lists of the design modules as the enums of the shape fields, where the
 * schema does not list them itself, so the response schema and the cleaner know every shape name.
 */
function withVocabulary(schema: JsonSchema): JsonSchema {
  const properties = schema.properties;
  if (!properties) return schema;
  const patched = Object.fromEntries(
    Object.entries(properties).map(([name, sub]) => {
      const names = VOCABULARY.get(name);
      return [name, names && !sub.enum && !sub.$ref ? { ...sub, type: sub.type ?? 'string', enum: names } : sub];
    }),
  );
  return { ...schema, properties: patched };
}

/**
 * Prompt → cleaned design. `schema` is the QrConfig JSON Schema (`qrConfigSchema` from src/schema/qr-config.ts).
 * Errors: those of `runChain`, and AI_CONFIG_INVALID when the answer holds no usable design.
 */
export async function designQr(
  input: DesignInput,
  attempts: readonly Attempt[],
  schema: JsonSchema,
  options: ChainOptions = {},
): Promise<DesignResult> {
  const p = prepare(schema);
  const creativity = Math.min(1, Math.max(0, Number.isFinite(input.creativity) ? (input.creativity as number) : 0.5));
  const preset = STYLE_PRESETS.find((p) => p === input.stylePreset) ?? DEFAULT_STYLE_PRESET;
  const request: LlmRequest = {
    system: p.system,
    user: buildUserPrompt(input.prompt, preset, creativity),
    schema: p.response,
    schemaName: SCHEMA_NAME,
    temperature: temperatureFor(creativity),
    maxTokens: MAX_OUTPUT_TOKENS,
  };
  const answer = await runChain(attempts, request, options);
  const { config, corrections } = cleanConfig(designPart(answer.json), p.schema);
  if (Object.keys(config).length === 0) {
    throw new ApiError('AI_CONFIG_INVALID', {
      message: 'The AI returned no usable design field; retry with lower creativity.',
    });
  }
  const explanation =
    typeof answer.json.explanation === 'string' ? answer.json.explanation.trim().slice(0, MAX_EXPLANATION) : '';
  return { config, explanation, corrections, providerId: answer.providerId, model: answer.model };
}

/**
 * The `config` of the answer. Models sometimes send it as a JSON string (Claude with large tool schemas)
 * or flatten the design fields into the top level; both are taken.
 */
function designPart(json: Record<string, unknown>): unknown {
  if (!('config' in json)) {
    const { explanation: _explanation, ...flat } = json;
    return flat;
  }
  return typeof json.config === 'string' ? (extractJsonObject(json.config) ?? json.config) : json.config;
}
