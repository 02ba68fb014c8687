const MASK = '[redacted]';
/** Vendors echo a key's head and tail ("sk-abc12****xyz9"), so any run this long taken from a key is a leak. */
const MIN_FRAGMENT = 8;
/**
 * Shorter pieces are masked where they can only be an echo: a key's head right before an elision, or its
 * tail right after one ("sk-RELf...cdefXYZ"). Below this the piece tells nothing of the key.
 */
const MIN_ELIDED = 4;
/** What vendors put between the head and the tail they echo of a key: `...`, `…`, `****`. */
const ELISION = /\.{2,}|…|\*{2,}/g;

/**
 * Key-looking tokens, whoever's key they are: `sk-…` (OpenAI, Anthropic, DeepSeek, OpenRouter), `key-…`,
 * `gsk_…` (Groq), `xai-…`, `AIza…` (Google). A digit, a capital, `*` or an elision is required, which a
 * random key has and ordinary words like "key-value-store" do not; a sentence's full stop is left.
 */
const TOKEN =
  /\b(?:sk|key|gsk|xai)[-_](?=[A-Za-z0-9*_.…-]*(?:[0-9A-Z*…]|\.\.))[A-Za-z0-9*_.…-]{3,}[A-Za-z0-9*_…-]|\bAIza[0-9A-Za-z_-]{8,}/g;

/**
 * Removes the given secrets and anything key-shaped from `text`. Callers pass every key they sent (a vendor
 * can only echo a key it received), so a managed chain passes all of its server keys. Every
 * MIN_FRAGMENT-long window of a secret that occurs in the text is masked, which covers the whole secret
 * and every longer fragment of it, and so is an elided echo of its head or tail.
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
    markElidedEcho(text, secret, masked);
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

/** Masks each elision with the head of `secret` right before it and its tail right after, when present. */
function markElidedEcho(text: string, secret: string, masked: Uint8Array): void {
  for (const m of text.matchAll(ELISION)) {
    const start = m.index;
    const end = start + m[0].length;
    const head = longestPiece(secret.length, start, (k) => text.startsWith(secret.slice(0, k), start - k));
    const tail = longestPiece(secret.length, text.length - end, (k) => text.startsWith(secret.slice(-k), end));
    if (head === 0 && tail === 0) continue;
    masked.fill(1, start - head, end + tail);
  }
}

/** The longest length from MIN_ELIDED up to the room there is that `fits`, or 0. */
function longestPiece(secretLength: number, room: number, fits: (k: number) => boolean): number {
  for (let k = Math.min(secretLength - 1, room); k >= MIN_ELIDED; k--) if (fits(k)) return k;
  return 0;
}
