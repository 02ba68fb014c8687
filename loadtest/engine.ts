import { type ChildProcess, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServiceProcess } from '../scripts/service-process.js';

/** An engine started as its own process for a load test, as it runs in production. */
export interface Engine {
  process: ChildProcess;
  port: number;
  url: string;
}

/** This build's entry point. */
export const THIS_MAIN = fileURLToPath(new URL('../src/main.js', import.meta.url));

/**
 * Starts the engine (`main`: LOADTEST_MAIN, another build's main.js for a baseline, or this build's) on a
 * port of the system's choosing unless LOADTEST_PORT names one: uWS listens with SO_REUSEPORT, so a fixed
 * port that another server already listens on would silently split the traffic between the two; such a
 * port is refused. The metering store is kept in memory unless told otherwise: a running `npm start` holds
 * ./data's.
 */
export async function startEngine(
  env: NodeJS.ProcessEnv = {},
  main: string = process.env.LOADTEST_MAIN ?? THIS_MAIN,
): Promise<Engine> {
  const fixed = Number(process.env.LOADTEST_PORT ?? 0);
  if (fixed && (await listening(fixed))) throw new Error(`port ${fixed} is in use: choose another, or 0`);
  const { child, ready } = await startServiceProcess(
    main,
    {
      QR_DATA_DIR: 'memory://',
      ...process.env,
      ...env,
      PORT: process.env.LOADTEST_PORT ?? '0',
      HOST: '127.0.0.1',
      QR_ROLE: 'engine',
    },
    { ready: /listening on http:\/\/127\.0\.0\.1:(\d+)/, passStderr: true },
  );
  const port = Number(ready[1]);
  return { process: child, port, url: `http://127.0.0.1:${port}` };
}

/** Whether something accepts connections on a loopback port. */
const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** `npm start`'s process tree of one build: the engine, its site as a child process, and a customer's key. */
export interface BuildTree {
  process: ChildProcess;
  /** The site's process (the tree's child), for its CPU time. */
  sitePid: number;
  /** The engine's and the site's origins. */
  engine: string;
  site: string;
  key: string;
  /** The tree's own data directory (PGlite). */
  dataDir: string;
  /** Stops the tree (SIGTERM: it drains), then removes its data directory. */
  stop(): Promise<void>;
}

/**
 * Starts the process tree (QR_ROLE=all) of the build at `dist` with `env` added, in a data directory of its
 * own, and issues a key through the build's admin CLI (`quickstart` and `quickstartArgs`). Port 0 for both
 * roles: uWS listens with SO_REUSEPORT, so a fixed port that another test on this machine also took would
 * split the traffic. `onOutput` sees what the tree writes to stdout.
 */
export async function startBuildTree(
  dist: string,
  {
    env: extra = {},
    quickstartArgs = [],
    onOutput,
  }: {
    env?: Record<string, string>;
    quickstartArgs?: string[];
    onOutput?: (chunk: string) => void;
  } = {},
): Promise<BuildTree> {
  const dataDir = mkdtempSync(join(tmpdir(), 'qrfarm-loadtest-'));
  const env = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: '0',
    SITE_PORT: '0',
    QR_ROLE: 'all',
    QR_DATA_DIR: dataDir,
    QR_LIMIT_GENERAL: '100000000',
    QR_LIMIT_GENERATION: '100000000',
    ...extra,
  };
  const tree = await startServiceProcess(join(dist, 'src/main.js'), env, {
    ready: (log) => {
      const engine = /listening on http:\/\/[^:]+:(\d+) with/.exec(log)?.[1];
      const site = /site listening on http:\/\/[^:]+:(\d+)/.exec(log)?.[1];
      return engine && site ? { engine, site } : undefined;
    },
    passStderr: true,
    onOutput,
  });
  const { child, ready: ports } = tree;
  try {
    const sitePid = Number(
      execFileSync('ps', ['--ppid', String(child.pid), '-o', 'pid='])
        .toString()
        .trim(),
    );
    const admin = join(dist, 'scripts/admin.js');
    const quickstart = execFileSync(process.execPath, [admin, 'quickstart', '--json', ...quickstartArgs], { env });
    const { key } = JSON.parse(quickstart.toString()) as { key: string };
    return {
      process: child,
      sitePid,
      engine: `http://127.0.0.1:${ports.engine}`,
      site: `http://127.0.0.1:${ports.site}`,
      key,
      dataDir,
      async stop() {
        await tree.stop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    await tree.stop();
    throw e;
  }
}
