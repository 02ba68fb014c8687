/**
 * A measurement, not a test (`npx vite-node test/measure/zbar-reductions.ts`): on random designs that zxing
 * verifies, does zbar's verdict on an image the verifier could hand it cheaply agree with an independent
 * zbar read of the delivered file at its own size (test/helpers/decode.ts, decodeWithZbar)? The candidates:
 * the box-filtered reductions to 3, 4 and 5 px per module, the full-size grey, every 2nd row and column of
 * it, all in zbar's own grey (verify/read.ts), the full size in the grey zxing is handed (what zbar was
 * handed before), and what the verifier reads today (the 3 px reduction, then the full size). For each it counts the
 * designs it passes that the file read fails (a 200 the guarantee must not give) and those it fails that
 * the file read passes (a needless correction), with its median time. docs/design-decisions.md has the figures.
 *
 * `N` designs from `START` (spread-out seeds, as the corpus test's fixed seeds: consecutive seeds draw alike);
 * `MODULES`, `OUTER`, `INNER` (comma-separated names) draw the shapes from those lists instead of the whole
 * vocabulary; `ROWS=1` prints every design's verdicts.
 */
import { getInstance, ZBarConfigType, ZBarSymbol, ZBarSymbolType } from '@undecaf/zbar-wasm';
import { addBase64Assets } from '../../src/api/render-request.js';
import { composite, greyLevel, WHITE } from '../../src/model/color.js';
import { weakestContrast } from '../../src/model/contrast.js';
import type { Raster } from '../../src/model/raster.js';
import { encodePng } from '../../src/render/formats/png.js';
import { designScene } from '../../src/render/pipeline.js';
import { rasterizeScene } from '../../src/render/raster.js';
import { sceneToSvg } from '../../src/render/svg.js';
import { decodes, decodesAsDelivered, FAST, planReads } from '../../src/render/verify/plan.js';
import { type GreyImage, pixelsOf, READ_AS_FILE, scan } from '../../src/render/verify/read.js';
import { type QrConfigBody, prepareRender } from '../../src/schema/prepare-render.js';
import { initWasm } from '../../wasm/index.js';
import { decodeWithZbar } from '../helpers/decode.js';
import { prng, randomDesign } from '../helpers/random-design.js';

const N = Number(process.env.N ?? 300);
const START = Number(process.env.START ?? 0);
const utf8 = new TextEncoder();
const Y800 = 0x30303859;

await initWasm();
const z = await getInstance();
const sameBytes = (a: Int8Array, b: Uint8Array) => a.length === b.length && a.every((v, i) => (v & 0xff) === b[i]);

/** zbar's verdict on a grey image, scanning every `density`th row and column, and how long it took. */
function zbarRead(w: number, h: number, grey: Uint8Array, expected: Uint8Array, invert: boolean, density = 1) {
  const t = performance.now();
  const scanner = z._ImageScanner_create();
  z._ImageScanner_set_config(scanner, ZBarSymbolType.ZBAR_NONE, ZBarConfigType.ZBAR_CFG_ENABLE, 0);
  z._ImageScanner_set_config(scanner, ZBarSymbolType.ZBAR_QRCODE, ZBarConfigType.ZBAR_CFG_ENABLE, 1);
  z._ImageScanner_set_config(scanner, ZBarSymbolType.ZBAR_NONE, ZBarConfigType.ZBAR_CFG_BINARY, 1);
  z._ImageScanner_set_config(scanner, ZBarSymbolType.ZBAR_NONE, ZBarConfigType.ZBAR_CFG_X_DENSITY, density);
  z._ImageScanner_set_config(scanner, ZBarSymbolType.ZBAR_NONE, ZBarConfigType.ZBAR_CFG_Y_DENSITY, density);
  const n = w * h;
  const data = z._malloc(n);
  z.HEAPU8.set(invert ? grey.subarray(0, n).map((v) => 255 - v) : grey.subarray(0, n), data);
  const img = z._Image_create(w, h, Y800, data, n, 0);
  const found = z._ImageScanner_scan(scanner, img);
  const read =
    found > 0 &&
    ZBarSymbol.createSymbolsFromPtr(z._Image_get_symbols(img), z.HEAPU8.buffer as ArrayBuffer).some((s) =>
      sameBytes(s.data, expected),
    );
  z._Image_destory(img);
  z._ImageScanner_destory(scanner);
  return { read, ms: performance.now() - t };
}

const CANDIDATES = [
  '3 px',
  '4 px',
  '5 px',
  'full',
  'full, every 2nd line',
  "full, in zxing's grey (before zbar had its own)",
  '3 px, then full (today)',
] as const;
type Candidate = (typeof CANDIDATES)[number];
const tally = new Map(
  CANDIDATES.map((c) => [c, { passesUnreadFile: [] as string[], failsReadFile: 0, ms: [] as number[] }]),
);
let verified = 0;
let fileRead = 0;
const rows: string[] = [];

for (let i = START; i < START + N; i++) {
  const seed = ((i + 1) * 2654435761) >>> 0;
  const design = randomDesign(seed);
  const pick = prng(seed ^ 0x5bd1e995);
  for (const [env, field] of [
    ['MODULES', 'moduleShape'],
    ['OUTER', 'finderOuterShape'],
    ['INNER', 'finderInnerShape'],
  ] as const) {
    const names = process.env[env]?.split(',');
    if (names) design[field] = pick.pick(names);
  }
  const assets = addBase64Assets(design, {});
  const { config } = prepareRender(design as QrConfigBody, assets);
  const d = await designScene({ config, assets });
  // A flat code is read from its reduction alone, which stands for it (docs/design-decisions.md): not in question here.
  if (d.scene.flat) continue;
  const format = config.fileFormat;
  // Verified from the kernel's raster of the scene, as the pipeline verifies every PNG, SVG and PDF.
  const drawn = rasterizeScene(d.scene);
  const file = format === 'svg' ? utf8.encode(sceneToSvg(d.scene)) : encodePng(drawn);
  const checked: Raster = { kind: 'rgba', width: drawn.width, height: drawn.height, pixels: drawn.pixels.slice() };
  drawn.release();
  const expected = utf8.encode(config.content);
  const weakest = weakestContrast(config);
  const bg = composite(weakest.background, WHITE);
  const lightOnDark = greyLevel(composite(weakest.foreground, bg)) > greyLevel(bg);
  const { width, height } = checked;
  const plan = planReads(d.layout, width, height, false, lightOnDark);
  const box = (px: number) => ({ f: Math.max(1, Math.floor(d.layout.modulePx / px)), invert: lightOnDark, zbar: true });
  // zbar's candidates are all of its own grey (read.ts), as the verifier hands it.
  const { grey, zbarGrey, reduced } = scan(checked, READ_AS_FILE[format], [...plan.boxes, box(4), box(5)], true);
  // Only designs zxing verifies would reach zbar's verdict.
  const layer = plan.boxes.length > 3 ? reduced[3]! : null;
  const zxing =
    (await decodes(reduced[0]!, FAST, expected)) || (await decodesAsDelivered(layer, grey, width, height, expected));
  if (!zxing) continue;
  verified++;
  const fileReads = (await decodeWithZbar(format, file)).some((b) => Buffer.from(b).equals(expected));
  if (fileReads) fileRead++;
  const far = (img: GreyImage) => zbarRead(img.width, img.height, pixelsOf(img), expected, false);
  const [r3, r4, r5] = [reduced[2]!, reduced.at(-2)!, reduced.at(-1)!].map(far) as [
    ReturnType<typeof far>,
    ReturnType<typeof far>,
    ReturnType<typeof far>,
  ];
  const full = zbarRead(width, height, zbarGrey!, expected, lightOnDark);
  const verdicts: Record<Candidate, { read: boolean; ms: number }> = {
    '3 px': r3,
    '4 px': r4,
    '5 px': r5,
    full,
    'full, every 2nd line': zbarRead(width, height, zbarGrey!, expected, lightOnDark, 2),
    "full, in zxing's grey (before zbar had its own)": zbarRead(width, height, grey, expected, lightOnDark),
    '3 px, then full (today)': { read: r3.read && full.read, ms: r3.ms + (r3.read ? full.ms : 0) },
  };
  const tag = `seed ${seed}: ${format} ${width} px, ${d.layout.modulePx} px/module, ${config.moduleShape}/${config.finderOuterShape}/${config.finderInnerShape}, scale ${config.moduleScale}`;
  for (const c of CANDIDATES) {
    const { read, ms } = verdicts[c];
    const t = tally.get(c)!;
    t.ms.push(ms);
    if (read && !fileReads) t.passesUnreadFile.push(tag);
    if (!read && fileReads) t.failsReadFile++;
  }
  rows.push(`${tag}: file ${fileReads}; ${CANDIDATES.map((c) => `${c} ${verdicts[c].read}`).join(', ')}`);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? 0;
console.log(
  `${N} designs from ${START}: ${verified} anti-aliased ones zxing verifies, ${fileRead} of them read by zbar from the file`,
);
for (const c of CANDIDATES) {
  const t = tally.get(c)!;
  console.log(
    `${c}: passes ${t.passesUnreadFile.length} the file read fails, fails ${t.failsReadFile} it passes; median ${median(t.ms).toFixed(2)} ms`,
  );
  for (const tag of t.passesUnreadFile) console.log(`  ${tag}`);
}
if (process.env.ROWS) console.log(rows.join('\n'));
