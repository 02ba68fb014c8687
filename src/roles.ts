import { logInfo } from './observe/log.js';
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Config, socketPathProblem, UNIX_SCHEME } from './config.js';
import { loadUws } from './http/uws.js';
import { startService, type RunningService } from './server.js';
import { type RunningSite, startSite, type SiteOptions } from './site/server.js';
import { isMemoryDataDir, readOrCreateSecret } from './store/data-dir.js';

/** The relay secret generated for QR_ROLE=all, kept in the data directory so restarts agree with themselves. */
const INTERNAL_SECRET_FILE = 'internal-secret';

/** Where this process's engine is reached from the same host: its address, or loopback for a wildcard. */
function reachable(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::' || host === '[::]') return '[::1]';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** How a site on this host reaches this process's engine: its Unix socket when it has one, else its port. */
const engineAddress = (config: Config, port: number): string =>
  config.engineSocket === undefined
    ? `http://${reachable(config.host)}:${port}`
    : `${UNIX_SCHEME}${config.engineSocket}`;

/** The socket `npm start`'s engine listens on for its site when QR_ENGINE_SOCKET does not name one. */
const TREE_SOCKET_FILE = 'engine.sock';

/**
 * QR_ENGINE_SOCKET, or one for the process tree: in the data directory (whose lock keeps a second tree
 * away), or in the system's temporary directory for memory:// or a directory too deep for a socket path.
 */
function withEngineSocket(config: Config): Config {
  if (config.engineSocket !== undefined) return config;
  const inDataDir = isMemoryDataDir(config.store.dataDir)
    ? undefined
    : join(resolve(config.store.dataDir), TREE_SOCKET_FILE);
  const engineSocket =
    inDataDir !== undefined && socketPathProblem(inDataDir) === undefined
      ? inDataDir
      : join(tmpdir(), `qrfarm-${process.pid}-${randomBytes(6).toString('hex')}.sock`);
  return { ...config, engineSocket };
}

/** With QR_ROLE=all and no QR_INTERNAL_SECRET: one generated on first start and kept in the data directory. */
function withInternalSecret(config: Config): Config {
  if (config.internalSecrets.length > 0) return config;
  const secret = isMemoryDataDir(config.store.dataDir)
    ? randomBytes(32).toString('base64url')
    : readOrCreateSecret(config.store.dataDir, INTERNAL_SECRET_FILE);
  return { ...config, internalSecrets: [secret] };
}

/** What main.ts stops on SIGTERM: drained first (`graceMs` at most), then closed. */
export interface Stoppable {
  /** Resolves with the number of requests still unanswered when the grace period ended (0: all answered). */
  drain(graceMs: number): Promise<number>;
  close(): Promise<void>;
}

export interface RunningRoles extends Stoppable {
  engine: RunningService | undefined;
  site: RunningSite | undefined;
}

/**
 * The site first, then the engine: the site's requests in flight need the engine to finish, and the site
 * of QR_ROLE=all relays to this engine alone.
 */
async function drainInTurn(graceMs: number, site: Stoppable | undefined, engine: Stoppable | undefined) {
  const started = performance.now();
  const left = (await site?.drain(graceMs)) ?? 0;
  return left + ((await engine?.drain(Math.max(1, graceMs - (performance.now() - started)))) ?? 0);
}

/**
 * Starts what QR_ROLE asks for, in this process. `engine` and `site` start one role each, for N engines and
 * M sites behind a load balancer; they share QR_INTERNAL_SECRET, and the site names the engines in
 * QR_ENGINE_URL. `all` runs both here, the site relaying to the engine over loopback HTTP exactly as it
 * would to a remote one, or through QR_ENGINE_SOCKET when that is set (the tests' way; `npm start` uses
 * `startProcessTree`), with a relay secret generated on first start when none is configured.
 */
export async function startRoles(
  config: Config,
  log: (msg: string) => void = logInfo,
  siteOptions: Pick<SiteOptions, 'accounts'> = {},
): Promise<RunningRoles> {
  if (config.role === 'all') config = withInternalSecret(config);
  const engine = config.role === 'site' ? undefined : await startService(config, log);
  let site: RunningSite | undefined;
  try {
    if (config.role !== 'engine') {
      const engineUrls =
        engine !== undefined && config.site.engineUrls.length === 0
          ? [engineAddress(config, engine.port)]
          : config.site.engineUrls;
      site = await startSite(config, { engineUrls, uws: loadUws(), ...siteOptions }, log);
    }
  } catch (e) {
    await engine?.close();
    throw e;
  }
  return {
    engine,
    site,
    drain: (graceMs) => drainInTurn(graceMs, site, engine),
    close: async () => {
      await site?.close();
      await engine?.close();
    },
  };
}

/** What a site started by `startProcessTree` tells its parent once it listens. */
export const SITE_READY = 'qrfarm:site-ready';

/**
 * `npm start` with QR_ROLE=all: the engine in this process and the site in a child process running `entry` with
 * QR_ROLE=site, relaying to this engine through its Unix socket (a relay measured alone costs the site less
 * than over loopback TCP). Two processes rather than one, because a site and an engine sharing one event loop
 * halve what a cached call through the gateway can do, and the embedded store's queries run on the thread that
 * calls them (both: docs/design-decisions.md, "The consumer gateway"). The child ending ends the tree, so a
 * supervisor sees one failure and restarts the whole.
 */
export async function startProcessTree(
  config: Config,
  entry: string,
  log: (msg: string) => void = logInfo,
): Promise<Stoppable> {
  const withSecret = withEngineSocket(withInternalSecret(config));
  const engine = await startService({ ...withSecret, role: 'engine' }, log);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    QR_ROLE: 'site',
    QR_ENGINE_URL: engineAddress(withSecret, engine.port),
  };
  // A generated secret reaches the child the way an operator's would: by its variable.
  if (config.internalSecrets.length === 0) env.QR_INTERNAL_SECRET = withSecret.internalSecrets[0];
  const site = fork(entry, [], { env, stdio: 'inherit' });
  let closing = false;
  const exited = new Promise((resolve) => site.once('exit', resolve));
  // The child drains itself on SIGTERM (main.ts) and exits once its requests are answered.
  const stopSite = async () => {
    closing = true;
    site.kill('SIGTERM');
    await exited;
  };
  try {
    await new Promise<void>((resolve, reject) => {
      site.once('message', (m) => (m === SITE_READY ? resolve() : undefined));
      site.once('exit', (code) => reject(new Error(`the site process exited with ${code} before it listened`)));
    });
  } catch (e) {
    await engine.close();
    throw e;
  }
  site.once('exit', (code) => {
    if (closing) return;
    // Asked to stop (a Ctrl-C reaches the whole group) it exits 0 and the tree stops cleanly; otherwise
    // it failed, and so does the tree.
    if (code !== 0) log(`the site process exited with ${code}; stopping the engine`);
    void engine.close().then(() => process.exit(code ?? 1));
  });
  return {
    drain: (graceMs) => drainInTurn(graceMs, { drain: () => stopSite().then(() => 0), close: stopSite }, engine),
    close: async () => {
      await stopSite();
      await engine.close();
    },
  };
}
