import { spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_SOCKET_PATH_BYTES, socketPathOf, socketPathProblem } from '../../src/config.js';
import { freeSocketPath, removeSocket, restrictSocket } from '../../src/http/unix-socket.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'qrfarm-sock-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A socket someone listens on at `path`. */
const listening = (path: string) =>
  new Promise<Server>((resolve) => {
    const server = createServer((s) => s.destroy()).listen(path, () => resolve(server));
  });
const closed = (server: Server) => new Promise((resolve) => server.close(resolve));

/**
 * The socket file a killed process leaves behind (a server that closes removes its own): bound by a child
 * that is then killed with SIGKILL.
 */
async function staleSocket(path: string): Promise<void> {
  const child = spawn(process.execPath, [
    '-e',
    `require('node:net').createServer().listen(${JSON.stringify(path)}, () => console.log('up'))`,
  ]);
  await new Promise((resolve) => child.stdout.once('data', resolve));
  child.kill('SIGKILL');
  await new Promise((resolve) => child.once('exit', resolve));
}

describe('socket paths', () => {
  it('unix: addresses name a path; http(s) origins do not', () => {
    expect(socketPathOf('unix:/run/qrfarm/engine.sock')).toBe('/run/qrfarm/engine.sock');
    expect(socketPathOf('http://127.0.0.1:3000')).toBeUndefined();
  });

  it('absolute, and at most the 107 bytes a socket address holds with its terminating zero', () => {
    expect(socketPathProblem('engine.sock')).toMatch(/absolute/);
    expect(socketPathProblem(`/${'a'.repeat(MAX_SOCKET_PATH_BYTES - 1)}`)).toBeUndefined();
    expect(socketPathProblem(`/${'a'.repeat(MAX_SOCKET_PATH_BYTES)}`)).toMatch(/at most 107 bytes/);
  });
});

describe('freeSocketPath', () => {
  it('a path where nothing is: free as it is', async () => {
    await expect(freeSocketPath(join(dir, 'engine.sock'))).resolves.toBeUndefined();
  });

  it('a socket left by a process that did not close it: removed', async () => {
    const path = join(dir, 'engine.sock');
    await staleSocket(path);
    expect(lstatSync(path).isSocket()).toBe(true);
    await freeSocketPath(path);
    expect(existsSync(path)).toBe(false);
  });

  it('a socket another process listens on: refused, and left listening', async () => {
    const path = join(dir, 'engine.sock');
    const server = await listening(path);
    try {
      await expect(freeSocketPath(path)).rejects.toThrow(/in use/);
      expect(lstatSync(path).isSocket()).toBe(true);
    } finally {
      await closed(server);
    }
  });

  it('a file that is not a socket: refused, and kept as it was', async () => {
    const path = join(dir, 'notes.txt');
    writeFileSync(path, 'kept');
    await expect(freeSocketPath(path)).rejects.toThrow(/not a Unix socket/);
    expect(readFileSync(path, 'utf8')).toBe('kept');
  });

  it('a relative or overlong path: refused before anything is touched', async () => {
    await expect(freeSocketPath('engine.sock')).rejects.toThrow(/absolute/);
    await expect(freeSocketPath(join(dir, 'a'.repeat(120)))).rejects.toThrow(/at most 107 bytes/);
  });
});

describe('the socket file', () => {
  it('is made readable and writable by its owner only, and removed at close (once gone, no error)', async () => {
    const path = join(dir, 'engine.sock');
    await staleSocket(path);
    restrictSocket(path);
    expect(lstatSync(path).mode & 0o777).toBe(0o600);
    removeSocket(path);
    expect(existsSync(path)).toBe(false);
    expect(() => removeSocket(path)).not.toThrow();
  });
});
