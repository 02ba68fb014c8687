import { availableParallelism } from 'node:os';

/** Every environment variable the service reads, parsed and typed in one place. */
export interface Config {
  host: string;
  port: number;
  /** Marketplace proxy secret; undefined runs the service open (loopback only). */
  proxySecret: string | undefined;
  proxySecretHeader: string;
  workers: number;
  /** Renders waiting for a worker before new ones get SERVER_BUSY. */
  maxQueue: number;
  taskTimeoutMs: number;
  workerHeapMb: number;
  /** Renders whose canvas exceeds this many pixels count as high-resolution. */
  heavyPixels: number;
  /** High-resolution renders allowed at once (running or queued). */
  heavyConcurrency: number;
  /** Bytes of rendered output kept for identical requests. */
  cacheBytes: number;
  maxBodyBytes: number;
  maxMultipartBytes: number;
  maxHeaderBytes: number;
  logRequests: boolean;
}

const int = (env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number => {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer ≥ ${min}, got "${raw}"`);
  return n;
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const workers = int(env, 'QR_WORKERS', availableParallelism(), 1);
  return {
    host: env.HOST || '127.0.0.1',
    port: int(env, 'PORT', 3000),
    proxySecret: env.QR_PROXY_SECRET || undefined,
    proxySecretHeader: (env.QR_PROXY_SECRET_HEADER || 'X-RapidAPI-Proxy-Secret').toLowerCase(),
    workers,
    maxQueue: int(env, 'QR_MAX_QUEUE', workers * 16),
    taskTimeoutMs: int(env, 'QR_TASK_TIMEOUT_MS', 15_000, 1),
    workerHeapMb: int(env, 'QR_WORKER_HEAP_MB', 512, 64),
    heavyPixels: int(env, 'QR_HEAVY_PIXELS', 2048 * 2048, 1),
    heavyConcurrency: int(env, 'QR_HEAVY_CONCURRENCY', Math.max(1, workers), 1),
    cacheBytes: int(env, 'QR_CACHE_MB', 64) * 1024 * 1024,
    maxBodyBytes: 10 * 1024 * 1024,
    // Two files of 10 MB each plus the config and multipart framing.
    maxMultipartBytes: 21 * 1024 * 1024,
    maxHeaderBytes: int(env, 'QR_MAX_HEADER_BYTES', 16 * 1024, 1024),
    logRequests: env.QR_LOG_REQUESTS === '1',
  };
}

export const isLoopback = (host: string): boolean =>
  host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
