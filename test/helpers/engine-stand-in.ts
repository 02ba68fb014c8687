/**
 * An engine's HTTP side as the site sees it, for the unit tests of what the site relays: every request
 * recorded with its relay signature checked by the real verifier (src/relay/signature.ts), and answered
 * with what the test set. It renders nothing.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InProcessReplayMemory } from '../../src/relay/replay.js';
import { isRelayed, verifyRelay } from '../../src/relay/signature.js';

export interface EngineRequest {
  method: string;
  /** Path and query. */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The customer a valid signature names; null when unsigned; 'bad signature' when it does not verify. */
  signedFor: string | null;
}

export interface EngineAnswer {
  status: number;
  headers?: Record<string, string>;
  body: string | Buffer;
}

export interface StandInEngine {
  origin: string;
  requests: EngineRequest[];
  /** What the next requests are answered with; default a 200 JSON `{success:true}`. */
  answer: (request: EngineRequest) => EngineAnswer;
  close(): Promise<void>;
}

export async function startStandInEngine(secret: string): Promise<StandInEngine> {
  const replay = new InProcessReplayMemory();
  const engine: StandInEngine = {
    origin: '',
    requests: [],
    answer: () => ({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"success":true}' }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      // The site's EngineClient probes each engine's readiness on its own clock: ready, and not a relayed call.
      if (req.method === 'GET' && req.url === '/readyz') {
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '5' });
        res.end('ready');
        return;
      }
      const body = Buffer.concat(chunks);
      const headers = req.headers as Record<string, string>;
      let signedFor: string | null = null;
      if (isRelayed(headers))
        signedFor = await verifyRelay({
          secrets: [secret],
          method: req.method!,
          pathWithQuery: req.url!,
          body,
          headers,
          replay,
        }).then(
          (id) => id.customerId,
          () => 'bad signature',
        );
      const request = { method: req.method!, url: req.url!, headers: req.headers, body, signedFor };
      engine.requests.push(request);
      const a = engine.answer(request);
      // With its length, as the engine answers: the relay then reads an answer this small whole.
      res.writeHead(a.status, { 'content-length': String(Buffer.byteLength(a.body)), ...a.headers });
      res.end(a.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  engine.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return engine;
}
