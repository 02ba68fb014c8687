import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeOne, decodeWithZbar } from '../helpers/decode.js';
import { randomDesign } from '../helpers/random-design.js';
import { startTestService, type TestService } from '../helpers/service.js';

const DESIGNS = 500;
const IN_FLIGHT = 6;

const utf8 = new TextEncoder();

/** Which decoder families, read independently of the service, find the content in a file, byte for byte. */
async function readers(format: string, file: Uint8Array, content: string) {
  const zxing = await decodeOne(format, file).then(
    (d) => Buffer.from(d.bytes).equals(utf8.encode(content)),
    () => false,
  );
  const zbar = (await decodeWithZbar(format, file)).some((b) => Buffer.from(b).equals(utf8.encode(content)));
  return { zxing, zbar };
}

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({ cacheBytes: 0 });
});
afterAll(() => svc.close());

describe(`a corpus of ${DESIGNS} random designs from the whole vocabulary`, () => {
  it('never returns a code either decoder family cannot read as a success, and at least 97 % succeed', async () => {
    const outcomes: { seed: number; status: number; code?: string; corrections: number; score?: number }[] = [];
    const unread: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < DESIGNS) {
        const seed = next++;
        const design = randomDesign(seed);
        const res = await svc.post('/api/qr/generate', design);
        const body = await res.json();
        if (res.status === 200) {
          const file = new Uint8Array(Buffer.from(body.qrBase64, 'base64'));
          const read = await readers(body.format, file, design.content);
          for (const family of ['zxing', 'zbar'] as const)
            if (!read[family]) unread.push(`seed ${seed}, ${family}: ${JSON.stringify(design)}`);
          expect(body.verification).toMatchObject({
            decoded: true,
            decoders: { zxing: { decoded: true }, zbar: { decoded: true } },
          });
          outcomes.push({
            seed,
            status: 200,
            corrections: body.corrections.length,
            score: body.verification.scanScore,
          });
        } else {
          expect([400, 422], `seed ${seed}: ${JSON.stringify(body)}`).toContain(res.status);
          outcomes.push({ seed, status: res.status, code: body.code, corrections: 0 });
        }
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));

    const ok = outcomes.filter((o) => o.status === 200);
    const refused = outcomes.filter((o) => o.status !== 200);
    const corrected = ok.filter((o) => o.corrections > 0);
    const meanScore = ok.reduce((s, o) => s + (o.score ?? 0), 0) / ok.length;
    console.log(
      `corpus: ${ok.length}/${DESIGNS} rendered and read by both families (${corrected.length} after auto-fix), ${refused.length} refused ${JSON.stringify(refused.map((r) => `${r.seed}:${r.code}`))}, mean scanScore ${meanScore.toFixed(1)}; 200s a family cannot read: ${unread.length}`,
    );
    expect(outcomes).toHaveLength(DESIGNS);
    expect(unread).toEqual([]);
    expect(ok.length / DESIGNS).toBeGreaterThanOrEqual(0.97);
  }, 1_200_000);

  // Designs the verifier once passed although the delivered file does not decode: two SVGs whose grey,
  // as zxing converts RGBA, differs by a level from the PNG formula the verifier used, and a light-on-dark
  // PNG that decoded only inverted before zxing binarized it. (Consecutive seeds give near-identical first
  // draws, so seeds 0–2379 are all light on dark; these come from spread-out seeds.)
  // A refusal fails too: the file these seeds exist to check would not be made (were one refused, choose
  // another seed that reproduces the old fault).
  it.each([398662224, 1319188130, 2411176463])('never returns an undecodable code for seed %i', async (seed) => {
    const design = randomDesign(seed);
    const res = await svc.post('/api/qr/generate', design);
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    const file = new Uint8Array(Buffer.from(body.qrBase64, 'base64'));
    expect(await readers(body.format, file, design.content)).toEqual({ zxing: true, zbar: true });
  });
});
