import { describe, expect, it } from 'vitest';
import { redact } from '../../src/ai/redact.js';

describe('redact', () => {
  const key = 'sk-proj-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2';

  it('removes the key, any 8+ character piece of it, and key-looking tokens', () => {
    const out = redact(
      `bad key ${key}; echoed as ${key.slice(0, 8)}****${key.slice(-4)}; middle ${key.slice(10, 19)}; other sk-abc123def456 and AIzaSyB1c2D3e4F5g6H7i8`,
      [key],
    );
    expect(out).not.toContain(key.slice(0, 8));
    expect(out).not.toContain(key.slice(10, 19));
    expect(out).not.toMatch(/sk-abc|AIzaSy/);
    expect(out).toMatch(/^bad key \[redacted\]; echoed as \[redacted\]/);
  });

  it('removes every key of a chain at once, and fragments of each', () => {
    const serverKeys = ['gsk_ServerSecret0987654321abc', 'AIzaOtherServerKey1122334455'];
    expect(
      redact(
        'upstream said gsk_ServerSecret0987654321abc is bad; ServerSecret0987 again; OtherServerKey11 too',
        serverKeys,
      ),
    ).toBe('upstream said [redacted] is bad; [redacted] again; [redacted] too');
  });

  it('masks an echo of 7 leading and 7 trailing characters, and shorter ones, around any elision', () => {
    const letters = 'sk-RELfAbcDefGhiJklMnoPqrcdefXYZ';
    for (const secret of [key, letters, 'gsk_ServerSecret0987654321abc']) {
      for (const [head, gap, tail] of [
        [7, '...', 7],
        [5, '****', 4],
        [4, '…', 6],
        [12, '...', 4],
      ] as const) {
        const echo = `${secret.slice(0, head)}${gap}${secret.slice(-tail)}`;
        expect(redact(`Incorrect API key provided: ${echo}. See the docs.`, [secret])).toBe(
          'Incorrect API key provided: [redacted]. See the docs.',
        );
      }
    }
  });

  it('masks key-shaped tokens without a digit, known or not', () => {
    expect(redact('Incorrect API key provided: sk-RELf...cdefXYZ.')).toBe('Incorrect API key provided: [redacted].');
    expect(redact('key xai-AbcdEfghIjklMnop is revoked')).toBe('key [redacted] is revoked');
  });

  it('leaves ordinary text alone', () => {
    const text =
      'Rate limit reached for model `openai/gpt-oss-120b`; use a key-value store; retry in 7s... or later (sk-ip).';
    expect(redact(text, [key])).toBe(text);
    // A short piece of a key away from an elision is a word like another: "sk-proj" begins the key too.
    expect(redact('project keys start with sk-proj, then...', [key])).toBe('project keys start with sk-proj, then...');
  });
});
