/**
 * QR_LOG_FORMAT=json writes nothing but JSON lines: `npm start`'s process tree (the engine, and the site in a
 * child process) with REDIS_URL pointing at a port where nothing listens, so the site's key revocation feed
 * and the limits fall back and say so (paths that logged text before), then a relayed call, a wrong key and
 * a page. Every line either process writes to stdout or stderr must parse as a JSON object.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { unusedPort } from '../helpers/tcp.js';

const MAIN = fileURLToPath(new URL('../../dist/src/main.js', import.meta.url));

it('the engine and the site, an outage of Redis and requests: JSON lines only, on stdout and stderr', async () => {
  const [port, sitePort, redisPort] = [await unusedPort(), await unusedPort(), await unusedPort()];
  const child = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      QR_ROLE: 'all',
      QR_DATA_DIR: 'memory://',
      QR_WORKERS: '1',
      QR_LOG_FORMAT: 'json',
      HOST: '127.0.0.1',
      PORT: String(port),
      SITE_PORT: String(sitePort),
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const text = { stdout: '', stderr: '' };
  child.stdout.on('data', (d: Buffer) => (text.stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (text.stderr += d.toString()));
  // 'close': every process holding the pipes (the site's too) has ended and all they wrote is read.
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  // Whole lines only: a chunk may end inside one. After the exit, what is left must be nothing.
  const whole = (t: string) => t.slice(0, t.lastIndexOf('\n') + 1).split('\n');
  const lines = () => [...whole(text.stdout), ...whole(text.stderr)].filter((l) => l !== '');
  const parsed = () => lines().map((l) => JSON.parse(l) as Record<string, unknown>);
  const seen = (test: (l: Record<string, unknown>) => boolean) =>
    new Promise<void>((resolve, reject) => {
      const look = () => {
        try {
          if (parsed().some(test)) return resolve();
        } catch (e) {
          return reject(e);
        }
        setTimeout(look, 50);
      };
      look();
    });
  const site = `http://127.0.0.1:${sitePort}`;
  try {
    await seen((l) => String(l.msg).startsWith('qrfarm site listening'));
    await seen((l) => l.level === 40 && /Redis unreachable/.test(String(l.msg)));
    const wrongKey = `qrf_${'D'.repeat(20)}${'0'.repeat(12)}`;
    expect((await fetch(`${site}/api/v1/ping`, { headers: { 'x-api-key': wrongKey } })).status).toBe(401);
    expect((await fetch(`${site}/api/session`)).status).toBe(200);
    const render = await fetch(`http://127.0.0.1:${port}/api/qr/generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'json-lines-1' },
      body: JSON.stringify({ content: 'https://example.com/json-lines' }),
    });
    expect(render.status).toBe(200);
    await seen((l) => l.requestId === 'json-lines-1');
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
  expect(text.stdout.endsWith('\n') || text.stdout === '').toBe(true);
  expect(text.stderr.endsWith('\n') || text.stderr === '').toBe(true);
  const all = parsed();
  expect(all.length).toBe(lines().length);
  expect(all.every((l) => typeof l.time === 'string' && typeof l.level === 'number' && typeof l.msg === 'string')).toBe(
    true,
  );
  // Both processes wrote: the engine and the site have their own pids.
  expect(new Set(all.map((l) => l.pid)).size).toBe(2);
}, 120_000);
