/**
 * Starts the real service from the build output (dist/), in this process: native uWS, a real Piscina
 * pool of real workers. Tests talk to it over HTTP on loopback.
 */
import type { Config } from '../../src/config.js';
import type { RunningService, ServiceOptions } from '../../src/server.js';

const dist = (file: string) => new URL(`../../dist/src/${file}`, import.meta.url).href;

export interface TestService extends RunningService {
  url: string;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
}

export async function startTestService(
  overrides: Partial<Config> = {},
  log: (m: string) => void = () => {},
  options: ServiceOptions = {},
): Promise<TestService> {
  const { loadConfig } = (await import(dist('config.js'))) as typeof import('../../src/config.js');
  const { startService } = (await import(dist('server.js'))) as typeof import('../../src/server.js');
  // The metering store in memory: test files never share (or lock) a data directory.
  const config: Config = { ...loadConfig({ QR_DATA_DIR: 'memory://' }), port: 0, workers: 2, ...overrides };
  const running = await startService(config, log, options);
  const url = `http://127.0.0.1:${running.port}`;
  return {
    ...running,
    url,
    post: (path, body, headers = {}) =>
      fetch(url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
  };
}
