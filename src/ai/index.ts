/** What the routes use from the AI layer. */
export {
  callerAttempt,
  consumerServerAttempts,
  managedAttempts,
  MAX_API_KEY_CHARS,
  MODEL_ID,
  type CallerChoice,
} from './attempts.js';
export { runChain, type Attempt, type ChainOptions, type ChainResult } from './chain.js';
export { CALLER_FIELDS, cleanConfig, type CleanResult } from './clean-config.js';
export { designQr, temperatureFor, type DesignInput, type DesignResult } from './designer.js';
export type { JsonSchema } from './json-schema.js';
export {
  baseUrlOf,
  isProviderId,
  MODELS_NOTE,
  PROVIDER_IDS,
  providerList,
  type ProviderId,
  type ProviderRecord,
} from './providers.js';
export { redact } from './redact.js';
export { DEFAULT_AI_SETTINGS, type AiSettings, type ChainStep } from './settings.js';
export type { LlmRequest } from './wire/http.js';
export { buildSystemPrompt, DEFAULT_STYLE_PRESET, STYLE_PRESETS, type StylePreset } from './system-prompt.js';
