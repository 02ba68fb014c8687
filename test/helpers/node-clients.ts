/**
 * Node's three HTTP clients (fetch, undici's request, node:http) each POSTing one large body, from a child
 * process: a client in the service's own process shares its event loop, which hides the race of a server
 * that closes while the client is still writing (the client's EPIPE is what the test must be able to see).
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

export const NODE_CLIENTS = ['fetch', 'undici', 'node:http'] as const;
export type NodeClient = (typeof NODE_CLIENTS)[number];

/** What one try saw: the status and body, or the error code the client failed with. */
export type ClientOutcome = { status: number; body: string } | { error: string };

const CHILD = `
const [url, size, tries, undiciPath] = process.argv.slice(1);
const { request } = await import(undiciPath);
const http = await import('node:http');
const body = Buffer.alloc(Number(size), 0x20);
const headers = { 'content-type': 'application/json' };
const clients = {
  fetch: async () => {
    const r = await fetch(url, { method: 'POST', headers, body });
    return { status: r.status, body: await r.text() };
  },
  undici: async () => {
    const r = await request(url, { method: 'POST', headers, body });
    return { status: r.statusCode, body: await r.body.text() };
  },
  'node:http': () =>
    new Promise((resolve, reject) => {
      const q = http.request(url, { method: 'POST', headers: { ...headers, 'content-length': body.length } }, (r) => {
        let text = '';
        r.setEncoding('utf8');
        r.on('data', (c) => (text += c));
        r.on('end', () => resolve({ status: r.statusCode, body: text }));
        r.on('error', reject);
      });
      q.on('error', reject);
      q.end(body);
    }),
};
const out = {};
for (const [name, send] of Object.entries(clients)) {
  out[name] = [];
  for (let i = 0; i < Number(tries); i++) {
    try {
      out[name].push(await send());
    } catch (e) {
      out[name].push({ error: String(e.cause?.code ?? e.code ?? e.message) });
    }
  }
}
process.stdout.write(JSON.stringify(out));
`;

/** Each client POSTs `size` bytes to `url`, `tries` times in a row, from a child process. */
export function postFromNodeClients(
  url: string,
  size: number,
  tries: number,
): Promise<Record<NodeClient, ClientOutcome[]>> {
  const undici = pathToFileURL(createRequire(import.meta.url).resolve('undici')).href;
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--input-type=module', '-e', CHILD, url, String(size), String(tries), undici],
      { maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout));
      },
    );
  });
}
