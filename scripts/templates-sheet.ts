/**
 * Contact sheet of the template catalogue: starts the service on a free loopback port, fetches every
 * template's preview over HTTP (the real route, pool and pipeline), and composes one PNG, a row per
 * category with each template's id under its tile, at docs/templates-sheet.png.
 *
 *   npm run templates:sheet
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { initWasm } from '../wasm/index.js';
import { loadConfig } from '../src/config.js';
import { lineOutline, setLine } from '../src/design/typeset.js';
import { encodePng } from '../src/render/formats/png.js';
import { rasterizeSvg } from '../src/render/raster.js';
import { startService } from '../src/server.js';

const TILE = 200;
const GAP = 16;
const LABEL = 22;
const HEADER = 34;
const IN_FLIGHT = 8;

interface Summary { id: string; category: string }

/** A line of text as filled outlines (resvg is given no fonts), centred on `cx` or starting at `x`. */
function text(s: string, size: number, x: number, baseline: number, width: number, centred: boolean, fill: string): string {
  const line = setLine(s, 'sans', { size, minSize: size * 0.6, maxWidth: width });
  const left = centred ? x + (width - line.width) / 2 : x;
  return `<path fill="${fill}" d="${lineOutline(line, (gx) => [1, 0, 0, 1, left + gx, baseline])}"/>`;
}

const running = await startService({ ...loadConfig({}), port: 0 }, () => {});
try {
  const base = `http://127.0.0.1:${running.port}`;
  const { templates } = (await (await fetch(`${base}/api/qr/templates`)).json()) as { templates: Summary[] };
  const pngs = new Map<string, string>();
  const queue = [...templates];
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      for (let t = queue.shift(); t; t = queue.shift()) {
        const res = await fetch(`${base}/api/qr/templates/${t.id}/preview`);
        if (res.status !== 200) throw new Error(`${t.id}: preview answered ${res.status} ${await res.text()}`);
        pngs.set(t.id, Buffer.from(await res.arrayBuffer()).toString('base64'));
      }
    }),
  );

  const rows = new Map<string, Summary[]>();
  for (const t of templates) rows.set(t.category, [...(rows.get(t.category) ?? []), t]);
  const columns = Math.max(...[...rows.values()].map((r) => r.length));
  const width = GAP + columns * (TILE + GAP);
  const rowHeight = HEADER + TILE + LABEL + GAP;
  const height = GAP + rows.size * rowHeight;
  const parts: string[] = [];
  [...rows].forEach(([category, list], r) => {
    const y = GAP + r * rowHeight;
    parts.push(text(`${category} (${list.length})`, 20, GAP, y + 24, width - 2 * GAP, false, '#111111'));
    list.forEach((t, c) => {
      const x = GAP + c * (TILE + GAP);
      parts.push(`<rect x="${x - 1}" y="${y + HEADER - 1}" width="${TILE + 2}" height="${TILE + 2}" fill="#D0D0D0"/>`);
      parts.push(`<image x="${x}" y="${y + HEADER}" width="${TILE}" height="${TILE}" href="data:image/png;base64,${pngs.get(t.id)}"/>`);
      parts.push(text(t.id, 13, x, y + HEADER + TILE + 16, TILE, true, '#333333'));
    });
  });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><rect width="100%" height="100%" fill="#F4F4F4"/>${parts.join('')}</svg>`;

  await initWasm();
  const png = encodePng(rasterizeSvg(svg, width));
  const out = fileURLToPath(new URL('../../docs/templates-sheet.png', import.meta.url));
  mkdirSync(new URL('../../docs/', import.meta.url), { recursive: true });
  writeFileSync(out, png);
  console.log(`${templates.length} templates in ${rows.size} categories → ${out} (${width}×${height}, ${(png.byteLength / 1024).toFixed(0)} KB)`);
} finally {
  await running.close();
}
