import { fileURLToPath } from 'node:url';
import { loadConfig } from './config.js';
import { configureLogs, logError, logInfo } from './observe/log.js';
import { SITE_READY, startProcessTree, startRoles } from './roles.js';

try {
  const config = loadConfig();
  configureLogs(config.logFormat);
  const running =
    config.role === 'all'
      ? await startProcessTree(config, fileURLToPath(import.meta.url), logInfo)
      : await startRoles(config, logInfo);
  // Started by a process tree: the parent waits for this word before it reports the service up.
  process.send?.(SITE_READY);
  const stop = () => {
    void running.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (e) {
  logError(`qrfarm failed to start: ${(e as Error).message}`);
  process.exit(1);
}
