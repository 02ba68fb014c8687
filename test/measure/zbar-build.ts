/**
 * A measurement, not a test (`npx vite-node test/measure/zbar-build.ts`): do our zbar build (wasm/zbar/) and
 * @undecaf/zbar-wasm, the package it replaced, find the same payloads, byte for byte, in every grey image
 * zbar is handed for `N` random designs (test/helpers/zbar-images.ts lists them; spread-out seeds from
 * `START`, as the corpus test's)? Prints every design where they differ, the counts of images read and
 * unread, and each build's total read time. docs/design-decisions.md, "Our own zbar build", has the figures.
 */
import { performance } from 'node:perf_hooks';
import { packageZbarPayloads } from '../../bench/previous-zbar.js';
import { zbarPayloads } from '../../src/render/verify/zbar.js';
import { initWasm } from '../../wasm/index.js';
import { randomDesign } from '../helpers/random-design.js';
import { zbarImages } from '../helpers/zbar-images.js';

const N = Number(process.env.N ?? 1000);
const START = Number(process.env.START ?? 0);
await initWasm();

const hex = (ps: Uint8Array[]) => JSON.stringify(ps.map((p) => Buffer.from(p).toString('hex')));
let images = 0;
let read = 0;
const differ: string[] = [];
const ms = { ours: 0, package: 0 };
const readBy = new Map<string, number>();

for (let i = START; i < START + N; i++) {
  const seed = ((i + 1) * 2654435761) >>> 0;
  const { tag, images: all } = await zbarImages(randomDesign(seed));
  for (const { name, image, invert } of all) {
    let t = performance.now();
    const ours = hex(await zbarPayloads(image, invert));
    ms.ours += performance.now() - t;
    t = performance.now();
    const theirs = hex(await packageZbarPayloads(image, invert));
    ms.package += performance.now() - t;
    images++;
    if (ours !== '[]') {
      read++;
      readBy.set(name, (readBy.get(name) ?? 0) + 1);
    }
    if (ours !== theirs) differ.push(`seed ${seed} (${tag}), ${name}: ours ${ours}, package ${theirs}`);
  }
}

console.log(
  `${N} designs from ${START}: ${images} images, ${read} with a payload found (${[...readBy].map(([k, v]) => `${k} ${v}`).join(', ')}); ours and the package differ on ${differ.length}`,
);
console.log(`read time: ours ${(ms.ours / 1000).toFixed(1)} s, package ${(ms.package / 1000).toFixed(1)} s`);
for (const d of differ) console.log(`  ${d}`);
