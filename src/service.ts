import type { Config } from './config.js';
import type { Marketplace } from './marketplace/index.js';
import type { RenderCache } from './render/cache.js';
import type { RenderPool } from './render/pool.js';

/** What route handlers share: the configuration and the long-lived components built at start. */
export interface Service {
  config: Config;
  pool: RenderPool;
  cache: RenderCache;
  /** Plans, managed-AI quotas and usage of marketplace callers. */
  marketplace: Marketplace;
  startedAt: number;
  version: string;
  /** Path of the native uWebSockets.js addon in use. */
  uwsBinary: string;
}
