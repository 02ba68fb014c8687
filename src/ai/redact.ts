const MASK = '[redacted]';
/** Vendors echo a key's head and tail ("sk-abc12****xyz9"), so any run this long taken from a key is a leak. */
const MIN_FRAGMENT = 8;

/**
 * Key-looking tokens, whoever's key they are: `sk-…` (OpenAI, Anthropic, DeepSeek, OpenRouter), `key-…`,
 * `gsk_…` (Groq), `xai-…`, `AIza…` (Google). A digit or `*` is required so ordinary words like
 * "key-value-store" survive.
 */
const TOKEN = /\b(?:sk|key|gsk|xai)[-_](?=[A-Za-z0-9*_.-]*[0-9*])[A-Za-z0-9*_.-]{4,}|\bAIza[0-9A-Za-z_-]{8,}/g;

/**
 * Removes the given secrets and anything key-shaped from `text`. Callers pass every key they sent (a vendor
 * can only echo a key it received), so a managed chain passes all of its server keys. Every
 * MIN_FRAGMENT-long window of a secret that occurs in the text is masked, which covers the whole secret
 * and every longer fragment of it.
 */
export function redact(text: string, secrets: readonly string[] = []): string {
  const masked = new Uint8Array(text.length);
  for (const secret of secrets) {
    if (secret.length < MIN_FRAGMENT) {
      markAll(text, secret, masked);
      continue;
    }
    const windows = new Set<string>();
    for (let i = 0; i + MIN_FRAGMENT <= secret.length; i++) windows.add(secret.slice(i, i + MIN_FRAGMENT));
    for (let j = 0; j + MIN_FRAGMENT <= text.length; j++) {
      if (windows.has(text.slice(j, j + MIN_FRAGMENT))) masked.fill(1, j, j + MIN_FRAGMENT);
    }
  }
  let out = '';
  for (let i = 0; i < text.length; ) {
    if (masked[i]) {
      out += MASK;
      while (i < text.length && masked[i]) i++;
    } else {
      out += text[i++];
    }
  }
  return out.replace(TOKEN, MASK);
}

/** Below this a "key" is a placeholder (local servers accept anything) and masking it would shred the text. */
const MIN_SECRET = 4;

function markAll(text: string, secret: string, masked: Uint8Array): void {
  if (secret.length < MIN_SECRET) return;
  for (let j = text.indexOf(secret); j !== -1; j = text.indexOf(secret, j + 1)) masked.fill(1, j, j + secret.length);
}
