import type { ProviderId } from './providers.js';

/** One provider of a server-side chain; the model defaults to the provider's. */
export interface ChainStep {
  providerId: ProviderId;
  model?: string;
}

/**
 * What the AI layer takes from the service configuration (`Config.ai`, parsed from the environment by
 * `loadConfig` in src/config.ts). It is passed in rather than read from process.env, so two services in
 * one process (tests, the CLI) can point at different vendors.
 */
export interface AiSettings {
  /** A provider's base URL where it is not the vendor's own: a proxy, a local server, a test double. */
  baseUrls: Partial<Record<ProviderId, string>>;
  /** The server's own keys, used by the managed and consumer-server chains only. */
  managedKeys: Partial<Record<ProviderId, string>>;
  /** The managed chain in order; providers without a key in `managedKeys` are skipped. */
  managedChain: readonly ChainStep[];
  /** The consumer-server chain (`POST /api/qr/ai/generate/server`), skipped the same way. */
  serverChain: readonly ChainStep[];
  /** The contract's limits (docs/contract.md): at most 20 s per provider and 45 s across a fallback chain. */
  perAttemptMs: number;
  totalMs: number;
}

export const DEFAULT_AI_SETTINGS: Readonly<AiSettings> = {
  baseUrls: {},
  managedKeys: {},
  managedChain: [{ providerId: 'groq' }, { providerId: 'google' }, { providerId: 'openai' }],
  // The contract's order: Groq's larger then smaller model, then OpenAI, then Google.
  serverChain: [
    { providerId: 'groq', model: 'openai/gpt-oss-120b' },
    { providerId: 'groq', model: 'openai/gpt-oss-20b' },
    { providerId: 'openai' },
    { providerId: 'google' },
  ],
  perAttemptMs: 20_000,
  totalMs: 45_000,
};
