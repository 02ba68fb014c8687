import { loadConfig } from './config.js';
import { startService } from './server.js';

try {
  const running = await startService(loadConfig());
  const stop = () => {
    void running.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (e) {
  console.error(`qrfarm failed to start: ${(e as Error).message}`);
  process.exit(1);
}
