/**
 * The built service (`node dist/src/main.js`) as a process of its own, as `npm start` or an orchestrator
 * starts a role: its environment is `env` and PATH, nothing else of the test process's, so no variable of
 * the machine's changes what a test sees.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const MAIN = fileURLToPath(new URL('../../dist/src/main.js', import.meta.url));

export interface BuiltProcess {
  child: ChildProcess;
  /** What `ready` matched in its output: the engine's origin in [1] by default. */
  ready: RegExpExecArray;
  /** Everything it wrote so far, stdout and stderr together. */
  output(): string;
  /** SIGTERM, then resolves once it has exited and its pipes are closed (what it wrote is read). */
  stop(): Promise<void>;
}

/**
 * Starts it with `env`, resolving once its output matches `ready` (by default the engine's "listening on"
 * line, its origin captured); rejects with what it wrote if it exits first. `uid`: run as that user (and
 * group), for the data directory's ownership checks.
 */
export function startBuilt(
  env: Record<string, string>,
  { ready = /listening on (http:\/\/[^\s]+:\d+)/, uid }: { ready?: RegExp; uid?: number } = {},
): Promise<BuiltProcess> {
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(uid !== undefined && { uid, gid: uid }),
  });
  let output = '';
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await closed;
  };
  return new Promise((resolve, reject) => {
    let started = false;
    const read = (d: Buffer) => {
      output += d;
      const m = started ? null : ready.exec(output);
      if (m === null) return;
      started = true;
      resolve({ child, ready: m, output: () => output, stop });
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    void closed.then(() => {
      if (!started) reject(new Error(`${MAIN} exited with ${child.exitCode ?? child.signalCode}:\n${output}`));
    });
  });
}
