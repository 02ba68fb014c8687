import {
  type CALLER_FIELDS,
  DEFAULT_STYLE_PRESET,
  MAX_API_KEY_CHARS,
  MODEL_ID,
  PROVIDER_IDS,
  STYLE_PRESETS,
} from '../ai/index.js';
import { contentProperty, definitions, designProperties } from './qr-config.js';

/**
 * The QrConfig fields the AI bodies accept besides `content` (docs/contract.md: same meaning and defaults as
 * in QrConfig). All are among the fields the model may never set (`CALLER_FIELDS`); the look is the model's.
 */
export const AI_CALLER_FIELDS = [
  'logoUrl',
  'logoBase64',
  'backgroundImageUrl',
  'backgroundImageBase64',
  'centerText',
  'ctaText',
  'fileFormat',
  'outputWidth',
  'printSize',
  'responseType',
] as const satisfies readonly (typeof CALLER_FIELDS)[number][];

const callerProperties = Object.fromEntries(AI_CALLER_FIELDS.map((f) => [f, designProperties[f]]));

/** The body of POST /api/qr/ai/generate-managed; the marketplace body adds the provider fields. */
const briefProperties = {
  content: contentProperty,
  prompt: {
    type: 'string',
    minLength: 1,
    maxLength: 10_000,
    description: 'What the design should look like, in plain words (1–10000 characters).',
  },
  stylePreset: {
    type: 'string',
    enum: [...STYLE_PRESETS],
    default: DEFAULT_STYLE_PRESET,
    description: 'Overall style the model starts from. Default luxury.',
  },
  creativity: {
    type: 'number',
    minimum: 0,
    maximum: 1,
    default: 0.5,
    description: 'LLM temperature and boldness of the design, 0–1. Default 0.5.',
  },
  strictScannability: designProperties.strictScannability,
  ...callerProperties,
} as const;

export const aiGenerateManagedSchema = {
  $id: 'AiGenerateManagedRequest',
  type: 'object',
  additionalProperties: false,
  required: ['content', 'prompt'],
  definitions,
  properties: briefProperties,
} as const;

/**
 * POST /api/qr/ai/generate. The schema states the provider fields' rules for the published contract; the
 * route reports a violation of them with the contract's codes (INVALID_LLM_PROVIDER, INVALID_LLM_MODEL,
 * LLM_API_KEY_INVALID) rather than the generic ones.
 */
export const aiGenerateSchema = {
  $id: 'AiGenerateRequest',
  type: 'object',
  additionalProperties: false,
  required: ['content', 'prompt', 'llmProvider', 'llmApiKey'],
  definitions,
  properties: {
    ...briefProperties,
    llmProvider: { type: 'string', enum: [...PROVIDER_IDS], description: 'Provider id from GET /api/qr/ai/providers.' },
    llmApiKey: {
      type: 'string',
      minLength: 1,
      maxLength: MAX_API_KEY_CHARS,
      description: 'Your own key for that provider; used for this request only, never stored or logged.',
    },
    llmModel: {
      type: 'string',
      pattern: MODEL_ID.source,
      description:
        "Any model id the provider offers (letters, digits and . _ : / -, up to 100 characters). Default: the provider's default model.",
    },
  },
} as const;
