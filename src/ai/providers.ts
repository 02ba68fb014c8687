import type { AiSettings } from './settings.js';

export const PROVIDER_IDS = [
  'openai',
  'anthropic',
  'google',
  'mistral',
  'deepseek',
  'groq',
  'xai',
  'openrouter',
  'together',
  'local',
] as const;
export type ProviderId = (typeof PROVIDER_IDS)[number];

export type Wire = 'openai' | 'anthropic' | 'gemini';

/**
 * How structured output is asked for on the OpenAI wire:
 * - `strict`: `json_schema` with `strict: true` (every field required, optional ones nullable);
 * - `loose`: `json_schema` without strict (servers that build a grammar from any schema);
 * - `json_object`: JSON mode only; the shape comes from the prompt.
 */
export type StructuredMode = 'strict' | 'loose' | 'json_object';

/** Per-vendor deviations from the plain wire protocol (README.md here, *Vendor wire facts*). */
export interface Quirks {
  structured: (model: string) => StructuredMode;
  /** The temperature to send for a wanted one, or undefined to leave it out. */
  temperature: (model: string, wanted: number) => number | undefined;
  maxTokensField: 'max_completion_tokens' | 'max_tokens';
  /** DeepSeek's JSON mode sometimes answers with blank content; one more try usually succeeds. */
  retryBlankOnce: boolean;
  /** Merged into the request body as-is. */
  extraBody: (model: string) => Readonly<Record<string, unknown>>;
}

export interface Provider {
  readonly id: ProviderId;
  readonly name: string;
  readonly wire: Wire;
  /** The vendor's own base URL; `AiSettings.baseUrls` overrides it (see `baseUrlOf`). */
  readonly defaultBaseUrl: string;
  readonly defaultModel: string;
  readonly availableModels: readonly string[];
  readonly acceptsAnyModel: true;
  readonly quirks: Quirks;
}

export interface ProviderRecord {
  id: ProviderId;
  name: string;
  defaultModel: string;
  availableModels: string[];
  acceptsAnyModel: true;
}

export const MODELS_NOTE =
  'Any model id the provider offers works (letters, digits and . _ : / -, up to 100 characters); ' +
  'availableModels lists the recommended ones. For local, the model is whatever your endpoint serves.';

const clamp =
  (lo: number, hi: number) =>
  (_model: string, t: number): number =>
    Math.min(hi, Math.max(lo, t));

/** o-series and gpt-5 reasoning models reject any temperature but 1; the gpt-5 chat variants do not reason. */
const isOpenAiReasoning = (model: string): boolean => /^(o\d|gpt-5)/.test(model) && !model.includes('chat');
/** Models older than structured outputs (gpt-4o-2024-08-06) only have JSON mode. */
const isOpenAiLegacy = (model: string): boolean => /^(gpt-3\.5|gpt-4(-\d|-turbo|$)|o1-(mini|preview))/.test(model);

/** Claude Opus 4.7 and later refuse `temperature`; earlier models take 0–1. */
function anthropicTemperature(model: string, t: number): number | undefined {
  const m = /claude-(?:opus|sonnet|haiku)-(\d+)-(\d+)/.exec(model);
  if (m && (Number(m[1]) > 4 || (Number(m[1]) === 4 && Number(m[2]) >= 7))) return undefined;
  return Math.min(1, Math.max(0, t));
}

const baseQuirks: Quirks = {
  structured: () => 'strict',
  temperature: clamp(0, 2),
  maxTokensField: 'max_tokens',
  retryBlankOnce: false,
  extraBody: () => ({}),
};
const quirks = (overrides: Partial<Quirks> = {}): Quirks => ({ ...baseQuirks, ...overrides });

const DEFINITIONS: readonly Omit<Provider, 'acceptsAnyModel'>[] = [
  {
    id: 'openai',
    name: 'OpenAI',
    wire: 'openai',
    defaultBaseUrl: 'https://api.openai.com/v1',
    defaultModel: 'gpt-4.1-mini',
    availableModels: ['gpt-4.1-mini', 'gpt-4.1', 'gpt-4.1-nano', 'gpt-5-mini', 'gpt-5'],
    quirks: quirks({
      structured: (m) => (isOpenAiLegacy(m) ? 'json_object' : 'strict'),
      temperature: (m, t) => (isOpenAiReasoning(m) ? 1 : Math.min(2, Math.max(0, t))),
      maxTokensField: 'max_completion_tokens',
      // Reasoning tokens count against max_completion_tokens; at the default effort they can use it all up
      // and leave no room for the answer.
      extraBody: (m) => (isOpenAiReasoning(m) ? { reasoning_effort: 'low' } : {}),
    }),
  },
  {
    id: 'anthropic',
    name: 'Anthropic',
    wire: 'anthropic',
    defaultBaseUrl: 'https://api.anthropic.com/v1',
    defaultModel: 'claude-haiku-4-5',
    availableModels: ['claude-haiku-4-5', 'claude-sonnet-4-6', 'claude-opus-4-6'],
    quirks: quirks({ temperature: anthropicTemperature }),
  },
  {
    id: 'google',
    name: 'Google Gemini',
    wire: 'gemini',
    defaultBaseUrl: 'https://generativelanguage.googleapis.com/v1beta',
    defaultModel: 'gemini-2.5-flash',
    availableModels: ['gemini-2.5-flash', 'gemini-3.5-flash', 'gemini-3.1-flash-lite'],
    // Google advises leaving Gemini 3 at its default temperature: lower values make it loop.
    quirks: quirks({
      temperature: (m, t) => (/^(models\/)?gemini-3/.test(m) ? undefined : Math.min(2, Math.max(0, t))),
    }),
  },
  {
    id: 'mistral',
    name: 'Mistral AI',
    wire: 'openai',
    defaultBaseUrl: 'https://api.mistral.ai/v1',
    defaultModel: 'mistral-small-latest',
    availableModels: ['mistral-small-latest', 'mistral-medium-latest', 'mistral-large-latest'],
    quirks: quirks({ temperature: clamp(0, 1) }),
  },
  {
    id: 'deepseek',
    name: 'DeepSeek',
    wire: 'openai',
    defaultBaseUrl: 'https://api.deepseek.com',
    defaultModel: 'deepseek-flash',
    availableModels: ['deepseek-flash', 'deepseek-v4-pro'],
    quirks: quirks({ structured: () => 'json_object', retryBlankOnce: true }),
  },
  {
    id: 'groq',
    name: 'Groq',
    wire: 'openai',
    defaultBaseUrl: 'https://api.groq.com/openai/v1',
    defaultModel: 'openai/gpt-oss-120b',
    availableModels: ['openai/gpt-oss-120b', 'openai/gpt-oss-20b'],
    quirks: quirks({
      structured: (m) => (/^openai\/gpt-oss-(120b|20b)$/.test(m) ? 'strict' : 'json_object'),
      maxTokensField: 'max_completion_tokens',
    }),
  },
  {
    id: 'xai',
    name: 'xAI',
    wire: 'openai',
    defaultBaseUrl: 'https://api.x.ai/v1',
    defaultModel: 'grok-4.3',
    availableModels: ['grok-4.3', 'grok-4.5'],
    quirks: quirks(),
  },
  {
    id: 'openrouter',
    name: 'OpenRouter',
    wire: 'openai',
    defaultBaseUrl: 'https://openrouter.ai/api/v1',
    defaultModel: 'openai/gpt-4.1-mini',
    availableModels: [
      'openai/gpt-4.1-mini',
      'google/gemini-2.5-flash',
      'anthropic/claude-haiku-4.5',
      'openai/gpt-oss-120b',
    ],
    // Without require_parameters OpenRouter may route to an endpoint that silently ignores the schema.
    quirks: quirks({ extraBody: () => ({ provider: { require_parameters: true } }) }),
  },
  {
    id: 'together',
    name: 'Together AI',
    wire: 'openai',
    defaultBaseUrl: 'https://api.together.ai/v1',
    defaultModel: 'openai/gpt-oss-120b',
    availableModels: ['openai/gpt-oss-120b', 'moonshotai/Kimi-K2.5', 'meta-llama/Llama-3.3-70B-Instruct-Turbo'],
    quirks: quirks({ structured: () => 'loose' }),
  },
  {
    // Ollama, vLLM, llama.cpp and LM Studio all turn a JSON schema into a grammar but ignore `strict`.
    id: 'local',
    name: 'Local (OpenAI-compatible)',
    wire: 'openai',
    defaultBaseUrl: 'http://127.0.0.1:11434/v1',
    defaultModel: '',
    availableModels: [],
    quirks: quirks({ structured: () => 'loose' }),
  },
];

const trimSlash = (url: string): string => url.replace(/\/+$/, '');

const PROVIDERS: ReadonlyMap<ProviderId, Provider> = new Map(
  DEFINITIONS.map((def) => [def.id, { ...def, acceptsAnyModel: true }]),
);

export const isProviderId = (id: unknown): id is ProviderId =>
  typeof id === 'string' && (PROVIDER_IDS as readonly string[]).includes(id);

export function getProvider(id: ProviderId): Provider {
  const provider = PROVIDERS.get(id);
  if (!provider) throw new Error(`unknown provider ${id}`);
  return provider;
}

/** Where a provider is reached: its override from `AiSettings.baseUrls`, else the vendor's own URL. */
export const baseUrlOf = (id: ProviderId, overrides: AiSettings['baseUrls']): string =>
  trimSlash(overrides[id] ?? getProvider(id).defaultBaseUrl);

/** The public records of `GET /api/qr/ai/providers`, in the contract's order (docs/contract.md). */
export const providerList = (): ProviderRecord[] =>
  PROVIDER_IDS.map((id) => {
    const p = getProvider(id);
    return {
      id,
      name: p.name,
      defaultModel: p.defaultModel,
      availableModels: [...p.availableModels],
      acceptsAnyModel: true,
    };
  });
