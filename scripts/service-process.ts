/**
 * The service (a build's `src/main.js`) as a process of its own, as `npm start` or an orchestrator starts a
 * role, for the tests, benchmarks and load tests that need one: started, awaited until its output says it
 * is up, and stopped as an orchestrator stops it (SIGTERM: it drains).
 */
import { type ChildProcess, spawn } from 'node:child_process';

export interface ServiceProcess<T> {
  child: ChildProcess;
  /** What `ready` found in its output. */
  ready: T;
  /**
   * What it wrote, stdout and stderr (unless passed through) together: up to `ready`, or everything so far
   * with `keepOutput`.
   */
  output(): string;
  /** SIGTERM unless it has already exited, then resolves once it has and its pipes are closed. */
  stop(): Promise<void>;
}

export interface ServiceOptions<T> {
  /**
   * When it is up: a pattern its output must match, or a function of its output so far that answers
   * undefined until then. By default the engine's "listening on" line, its origin captured in [1].
   */
  ready?: RegExp | ((output: string) => T | undefined);
  /** Run as that user and group (the data directory's ownership checks). */
  uid?: number;
  /** Its stderr straight to this process's (a load test's console) rather than into `output()`. */
  passStderr?: boolean;
  /** Sees each chunk of its stdout as it comes. */
  onOutput?: (chunk: string) => void;
  /** Keep what it writes after `ready` for `output()` (a test reading its log lines); a load test would grow. */
  keepOutput?: boolean;
}

/** The engine's listening line; [1] is its origin. */
export const ENGINE_LISTENING = /listening on (http:\/\/[^\s]+:\d+)/;

/**
 * Starts `main` with exactly `env` (the caller decides what of its own environment to pass on) and resolves
 * once `ready` finds what it waits for; rejects with everything it wrote if it exits first.
 */
export function startServiceProcess<T = RegExpExecArray>(
  main: string,
  env: NodeJS.ProcessEnv,
  { ready = ENGINE_LISTENING, uid, passStderr = false, onOutput, keepOutput = false }: ServiceOptions<T> = {},
): Promise<ServiceProcess<T>> {
  const child = spawn(process.execPath, [main], {
    env,
    stdio: ['ignore', 'pipe', passStderr ? 'inherit' : 'pipe'],
    ...(uid !== undefined && { uid, gid: uid }),
  });
  const find =
    typeof ready === 'function' ? ready : (output: string) => (ready.exec(output) ?? undefined) as T | undefined;
  let output = '';
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await closed;
  };
  return new Promise((resolve, reject) => {
    let started = false;
    const read = (chunk: Buffer) => {
      if (started && !keepOutput) return;
      output += chunk;
      if (started) return;
      const found = find(output);
      if (found === undefined) return;
      started = true;
      resolve({ child, ready: found, output: () => output, stop });
    };
    child.stdout!.on('data', (chunk: Buffer) => {
      onOutput?.(chunk.toString());
      read(chunk);
    });
    child.stderr?.on('data', read);
    void closed.then(() => {
      if (!started) reject(new Error(`${main} exited with ${child.exitCode ?? child.signalCode}:\n${output}`));
    });
  });
}
