import { randomBytes } from 'node:crypto';
import type { Config } from './config.js';
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

export interface RunningRoles {
  engine: RunningService | undefined;
  site: RunningSite | undefined;
  close(): Promise<void>;
}

/**
 * Starts what QR_ROLE asks for. `all` (the default) runs the engine and the site in this process, the
 * site relaying to the engine over loopback HTTP exactly as it would to a remote one, with a relay secret
 * generated on first start when none is configured. `engine` and `site` start one role each, for N
 * engines and M sites behind a load balancer; they share QR_INTERNAL_SECRET, and the site names the
 * engines in QR_ENGINE_URL.
 */
export async function startRoles(
  config: Config,
  log: (msg: string) => void = console.log,
  siteOptions: Pick<SiteOptions, 'accounts'> = {},
): Promise<RunningRoles> {
  const both = config.role === 'all';
  if (both && config.internalSecrets.length === 0) {
    const secret = isMemoryDataDir(config.store.dataDir)
      ? randomBytes(32).toString('base64url')
      : readOrCreateSecret(config.store.dataDir, INTERNAL_SECRET_FILE);
    config = { ...config, internalSecrets: [secret] };
  }
  const engine = config.role === 'site' ? undefined : await startService(config, log);
  let site: RunningSite | undefined;
  try {
    if (config.role !== 'engine') {
      const engineUrls =
        engine !== undefined && config.site.engineUrls.length === 0
          ? [`http://${reachable(config.host)}:${engine.port}`]
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
    close: async () => {
      await site?.close();
      await engine?.close();
    },
  };
}
