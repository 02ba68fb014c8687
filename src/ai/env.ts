/**
 * Every environment variable the AI layer reads. They are read at call time, not at import, so a test (or an
 * operator rotating a key) changes behaviour without reloading modules.
 *
 *   QR_LLM_<ID>_BASE_URL      override a provider's base URL (e.g. QR_LLM_OPENAI_BASE_URL, QR_LLM_LOCAL_BASE_URL)
 *   QR_LLM_<ID>_API_KEY       the server's own key for a provider (managed and consumer-server chains)
 *   QR_AI_ATTEMPT_TIMEOUT_MS  per-provider limit, default 20000
 *   QR_AI_TOTAL_TIMEOUT_MS    whole-chain limit, default 45000
 */

const envName = (id: string, what: 'BASE_URL' | 'API_KEY'): string => `QR_LLM_${id.toUpperCase()}_${what}`;

const nonEmpty = (v: string | undefined): string | undefined => (v !== undefined && v.trim() !== '' ? v.trim() : undefined);

export const baseUrlOverride = (id: string): string | undefined => nonEmpty(process.env[envName(id, 'BASE_URL')]);

export const serverKey = (id: string): string | undefined => nonEmpty(process.env[envName(id, 'API_KEY')]);

/** Every server key that is set, whatever the provider: redaction must hide all of them. */
export const allServerKeys = (): string[] =>
  Object.entries(process.env)
    .filter(([name, value]) => /^QR_LLM_[A-Z0-9]+_API_KEY$/.test(name) && nonEmpty(value) !== undefined)
    .map(([, value]) => (value as string).trim());

function positiveInt(name: string, fallback: number): number {
  const raw = nonEmpty(process.env[name]);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer (milliseconds), got "${raw}"`);
  return n;
}

export const aiTimeouts = (): { perAttemptMs: number; totalMs: number } => ({
  perAttemptMs: positiveInt('QR_AI_ATTEMPT_TIMEOUT_MS', 20_000),
  totalMs: positiveInt('QR_AI_TOTAL_TIMEOUT_MS', 45_000),
});
