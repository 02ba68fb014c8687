/**
 * A site relaying to an engine on the same host through the engine's Unix socket (QR_ENGINE_SOCKET,
 * QR_ENGINE_URL=unix:<path>): `npm start`'s process tree as a newcomer runs it, and the two roles in one
 * process as an operator configures them. Real HTTP over the socket, renders decoded.
 */
import { existsSync, lstatSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok } from '../helpers/admin-cli.js';
import { type BuiltProcess, startBuilt } from '../helpers/built-process.js';
import { call, consumerConfig, refusal, startConsumer, startEngineRole } from '../helpers/consumer.js';
import { decodeOne } from '../helpers/decode.js';

const CONTENT = 'https://socket.example.com/relay?via=unix';

/** Renders CONTENT through the gateway and reads back what the PNG holds, as bytes. */
async function relayedRender(siteUrl: string, key: string): Promise<Uint8Array> {
  const answer = await call(siteUrl, '/api/v1/qr/generate', {
    key,
    body: { content: CONTENT, responseType: 'binary', outputWidth: 300 },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return (await decodeOne('png', answer.bytes)).bytes;
}

const contentBytes = new TextEncoder().encode(CONTENT);

describe("npm start's process tree", () => {
  let dataDir: string;
  let tree: BuiltProcess;
  const socket = () => join(dataDir, 'engine.sock');

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'qrfarm-tree-'));
    tree = await startBuilt(
      { HOST: '127.0.0.1', PORT: '0', SITE_PORT: '0', QR_DATA_DIR: dataDir },
      { ready: /site listening on (http:\/\/[^,]+),/ },
    );
  }, 120_000);

  afterAll(() => {
    tree?.child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('relays through a socket in the data directory, open to its owner only', async () => {
    expect(tree.output()).toContain(`relaying to unix:${socket()}`);
    const stat = lstatSync(socket());
    expect(stat.isSocket()).toBe(true);
    expect(stat.mode & 0o777).toBe(0o600);
  });

  it('a key from the CLI renders through the gateway, and the file holds the content', async () => {
    const { key } = await ok(['quickstart'], { QR_DATA_DIR: dataDir });
    expect(await relayedRender(tree.ready[1]!, key as string)).toEqual(contentBytes);
  }, 60_000);

  it('stopped, it removes its socket', async () => {
    const exited = new Promise((resolve) => tree.child.once('exit', resolve));
    tree.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(existsSync(socket())).toBe(false);
  }, 30_000);
});

describe('QR_ROLE=all in one process with QR_ENGINE_SOCKET', () => {
  let dir: string;
  let consumer: Awaited<ReturnType<typeof startConsumer>> | undefined;
  const said: string[] = [];
  const socket = () => join(dir, 'engine.sock');

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'qrfarm-sock-'));
    const config = await consumerConfig({ QR_DATA_DIR: 'memory://', QR_ENGINE_SOCKET: socket() });
    consumer = await startConsumer(config, undefined, (m) => said.push(m));
  }, 120_000);

  afterAll(async () => {
    await consumer?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the site relays through the socket; the engine still answers on its port', async () => {
    expect(said).toContain(`qrfarm site listening on ${consumer!.siteUrl}, relaying to unix:${socket()}`);
    const customer = await consumer!.customer();
    expect(await relayedRender(consumer!.siteUrl, customer.key)).toEqual(contentBytes);
    const direct = await call(consumer!.engineUrl!, '/api/qr/generate', {
      body: { content: CONTENT, responseType: 'binary', outputWidth: 300 },
    });
    expect(direct.status).toBe(200);
    expect((await decodeOne('png', direct.bytes)).bytes).toEqual(contentBytes);
  }, 60_000);

  it('a second engine naming the same socket is refused while the first listens on it', async () => {
    await expect(
      startEngineRole(await consumerConfig({ QR_DATA_DIR: 'memory://', QR_ENGINE_SOCKET: socket() })),
    ).rejects.toThrow(/in use/);
    expect(await relayedRender(consumer!.siteUrl, (await consumer!.customer()).key)).toEqual(contentBytes);
  }, 60_000);

  it('a site whose socket has no engine behind it answers 503 engine_unavailable', async () => {
    const lonely = await startConsumer(
      await consumerConfig({
        QR_DATA_DIR: 'memory://',
        QR_ROLE: 'site',
        QR_ENGINE_URL: `unix:${join(dir, 'nobody.sock')}`,
      }),
    );
    try {
      const customer = await lonely.customer();
      const answer = await call(lonely.siteUrl, '/api/v1/qr/generate', {
        key: customer.key,
        body: { content: CONTENT },
      });
      expect(refusal(answer)).toEqual({ status: 503, success: false, code: 'engine_unavailable' });
    } finally {
      await lonely.close();
    }
  }, 60_000);

  it('closed, the engine removes its socket', async () => {
    await consumer!.close();
    consumer = undefined;
    expect(existsSync(socket())).toBe(false);
  });
});
