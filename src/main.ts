import { loadConfig } from './config.js';
import { startRoles } from './roles.js';

try {
  const running = await startRoles(loadConfig());
  const stop = () => {
    void running.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (e) {
  console.error(`qrfarm failed to start: ${(e as Error).message}`);
  process.exit(1);
}
