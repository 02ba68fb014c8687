import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type * as Uws from '@trufflesuite/uws-js-unofficial';

export const UWS_PACKAGE = '@trufflesuite/uws-js-unofficial';
const require = createRequire(import.meta.url);

export interface LoadedUws {
  uws: typeof Uws;
  /** Path of the native addon that was loaded. */
  binary: string;
}

/**
 * Loads the native uWebSockets.js addon by its exact path. The package's own entry falls back to a
 * pure-JS implementation when the addon does not load; that fallback is refused here, loudly, because
 * the service's throughput depends on the native server.
 */
export function loadUws(): LoadedUws {
  const dir = dirname(require.resolve(`${UWS_PACKAGE}/package.json`));
  const binary = join(dir, 'binaries', `uws_${process.platform}_${process.arch}_${process.versions.modules}.node`);
  if (!existsSync(binary)) {
    throw new Error(
      `${UWS_PACKAGE} has no native build for ${process.platform}-${process.arch} (Node ABI ${process.versions.modules}); refusing to run on its pure-JS fallback.`,
    );
  }
  return { uws: require(binary) as typeof Uws, binary };
}
