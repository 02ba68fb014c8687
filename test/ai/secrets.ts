/** Checks for the secret-handling tests: a key must not appear whole or as any 8-character piece. */
import { expect, vi } from 'vitest';

export function expectNoSecret(text: string, secret: string): void {
  expect(text).not.toContain(secret);
  for (let i = 0; i + 8 <= secret.length; i++) expect(text).not.toContain(secret.slice(i, i + 8));
}

/** Everything written through console.* while the test runs. */
export function captureConsole(): { text: () => string; restore: () => void } {
  const lines: string[] = [];
  const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((m) =>
    vi.spyOn(console, m).mockImplementation((...args: unknown[]) => {
      lines.push(args.map((a) => (a instanceof Error ? `${a.message}\n${a.stack}` : String(a))).join(' '));
    }),
  );
  return {
    text: () => lines.join('\n'),
    restore: () => {
      for (const s of spies) s.mockRestore();
    },
  };
}

/** An error's message and stack, for secret checks. */
export const errorText = (err: unknown): string =>
  err instanceof Error ? `${err.message}\n${err.stack ?? ''}\n${JSON.stringify(err)}` : String(err);
