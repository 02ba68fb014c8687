/**
 * The operator CLI as an operator runs it: the built script (dist/scripts/admin.js) in its own process,
 * with only the variables given (plus PATH), so the machine's own DATABASE_URL and the like stay out.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

export const CLI = fileURLToPath(new URL('../../dist/scripts/admin.js', import.meta.url));

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function admin(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH ?? '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** `--json` output: exactly one JSON object on one line. */
export function oneObject(run: Run): Record<string, unknown> {
  const lines = run.stdout.split('\n').filter((l) => l !== '');
  expect(lines, run.stderr).toHaveLength(1);
  const value = JSON.parse(lines[0]!) as unknown;
  expect(typeof value === 'object' && value !== null && !Array.isArray(value)).toBe(true);
  return value as Record<string, unknown>;
}

/** A command that must succeed: its one JSON object. */
export async function ok(args: string[], env: Record<string, string>): Promise<Record<string, unknown>> {
  const run = await admin([...args, '--json'], env);
  expect(run.code, run.stderr + run.stdout).toBe(0);
  return oneObject(run);
}

/** A command that must fail (exit 1): its error envelope. */
export async function fails(args: string[], env: Record<string, string>): Promise<Record<string, unknown>> {
  const run = await admin([...args, '--json'], env);
  expect(run.code).toBe(1);
  const body = oneObject(run);
  expect(body.success).toBe(false);
  return body;
}
