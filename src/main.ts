import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadConfig } from './config.js';
import { configureLogs, logError, logInfo } from './observe/log.js';
import { SITE_READY, startProcessTree, startRoles } from './roles.js';
import { secureDataDir } from './store/index.js';

try {
  const config = loadConfig();
  configureLogs(config.logFormat);
  // QR_DATA_DIR the process's alone (0700, files 0600, umask 077) before anything is written in it; with
  // DATABASE_URL it may not exist yet, and is made 0700 when a secret is first kept there.
  if (config.store.databaseUrl === undefined || existsSync(config.store.dataDir)) secureDataDir(config.store.dataDir);
  const running =
    config.role === 'all'
      ? await startProcessTree(config, fileURLToPath(import.meta.url), logInfo)
      : await startRoles(config, logInfo);
  // Started by a process tree: the parent waits for this word before it reports the service up.
  process.send?.(SITE_READY);
  // SIGTERM (an orchestrator, a rolling restart) drains: not ready at once, no new connection, every request
  // accepted answered within QR_DRAIN_SECONDS; then the process exits 0.
  const stop = () => {
    const started = performance.now();
    logInfo('stopping: draining');
    void running
      .drain(config.drainMs)
      .then((unanswered) => {
        const took = `${Math.round(performance.now() - started)} ms`;
        if (unanswered === 0) logInfo(`drained in ${took}`);
        else logError(`QR_DRAIN_SECONDS passed with ${unanswered} requests unanswered; stopping after ${took}`);
        return running.close();
      })
      .then(() => process.exit(0));
  };
  // Ctrl-C at a terminal stops at once, as before.
  process.once('SIGINT', () => void running.close().then(() => process.exit(0)));
  process.once('SIGTERM', stop);
} catch (e) {
  logError(`qrfarm failed to start: ${(e as Error).message}`);
  process.exit(1);
}
