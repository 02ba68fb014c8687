/**
 * What the contact-sheet scripts share: the real service started in-process on a free loopback port,
 * tiles fetched from it over HTTP, and one PNG composed of labelled tiles in titled sections.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { initWasm } from '../wasm/index.js';
import { loadConfig } from '../src/config.js';
import { lineOutline, setLine } from '../src/design/typeset.js';
import { encodePng } from '../src/render/formats/png.js';
import { loadResvg, rasterizeSvg } from '../src/render/resvg.js';
import { startService } from '../src/server.js';

const GAP = 16;
const LABEL = 22;
const HEADER = 34;
/** Requests kept in flight: enough to keep every render worker busy without filling the pool's queue. */
const IN_FLIGHT = 8;
/** Checker cell size behind the tiles, so a translucent render shows as translucent rather than as grey. */
const CHECKER = 8;

/** One image on a sheet, with the name drawn under it. */
export interface Tile {
  label: string;
  png: Uint8Array;
}
export interface Section {
  title: string;
  tiles: Tile[];
}
/** Side of a (square) tile in sheet pixels, and how many tiles a row holds before a section wraps. */
export interface SheetLayout {
  tile: number;
  columns: number;
}

/** Runs `use` against the real service (native uWS, the worker pool) on a free loopback port, then stops it. */
export async function withService<T>(use: (base: string) => Promise<T>): Promise<T> {
  // Its metering in memory: a running engine may hold the data directory's store.
  const config = loadConfig({ QR_DATA_DIR: 'memory://' });
  const running = await startService({ ...config, port: 0 }, () => {});
  try {
    return await use(`http://127.0.0.1:${running.port}`);
  } finally {
    await running.close();
  }
}

/** `work` over every item, IN_FLIGHT at a time, results in the items' order; the first failure fails all. */
export async function inParallel<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(IN_FLIGHT, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await work(items[i]!);
      }
    }),
  );
  return results;
}

/** A PNG from the service, or an error naming what was asked for and the service's answer. */
export async function fetchPng(
  name: string,
  url: string,
  init?: RequestInit,
): Promise<{ png: Uint8Array; headers: Headers }> {
  const res = await fetch(url, init);
  if (res.status !== 200) throw new Error(`${name}: the service answered ${res.status} ${await res.text()}`);
  return { png: new Uint8Array(await res.arrayBuffer()), headers: res.headers };
}

/** A line of text as filled outlines (resvg is given no fonts), centred in `width` or starting at `x`. */
function text(
  s: string,
  size: number,
  x: number,
  baseline: number,
  width: number,
  centred: boolean,
  fill: string,
): string {
  const line = setLine(s, 'sans', { size, minSize: size * 0.6, maxWidth: width });
  // A label cut short names nothing: better to fail and have it shortened at the source.
  if (line.truncated) throw new Error(`"${s}" does not fit ${width} px, even at ${size * 0.6} px`);
  const left = centred ? x + (width - line.width) / 2 : x;
  return `<path fill="${fill}" d="${lineOutline(line, (gx) => [1, 0, 0, 1, left + gx, baseline])}"/>`;
}

/**
 * Composes the sections into one PNG at `file` (relative to the repository root): each section a title
 * over rows of at most `columns` tiles, each tile framed, on a checkerboard, with its label centred
 * beneath.
 */
export async function writeSheet(file: string, sections: Section[], { tile, columns }: SheetLayout): Promise<void> {
  const width = GAP + columns * (tile + GAP);
  const cell = tile + LABEL + GAP;
  const parts: string[] = [];
  let y = GAP;
  for (const { title, tiles } of sections) {
    parts.push(text(title, 20, GAP, y + 24, width - 2 * GAP, false, '#111111'));
    tiles.forEach((t, i) => {
      const x = GAP + (i % columns) * (tile + GAP);
      const top = y + HEADER + Math.floor(i / columns) * cell;
      parts.push(`<rect x="${x - 1}" y="${top - 1}" width="${tile + 2}" height="${tile + 2}" fill="#D0D0D0"/>`);
      parts.push(`<rect x="${x}" y="${top}" width="${tile}" height="${tile}" fill="url(#checker)"/>`);
      parts.push(
        `<image x="${x}" y="${top}" width="${tile}" height="${tile}" href="data:image/png;base64,${Buffer.from(t.png).toString('base64')}"/>`,
      );
      parts.push(text(t.label, 13, x, top + tile + 16, tile, true, '#333333'));
    });
    y += HEADER + Math.ceil(tiles.length / columns) * cell;
  }
  const height = y;
  const checker =
    `<pattern id="checker" width="${2 * CHECKER}" height="${2 * CHECKER}" patternUnits="userSpaceOnUse">` +
    `<rect width="${2 * CHECKER}" height="${2 * CHECKER}" fill="#FFFFFF"/>` +
    `<path d="M0 0h${CHECKER}v${CHECKER}h-${CHECKER}zM${CHECKER} ${CHECKER}h${CHECKER}v${CHECKER}h-${CHECKER}z" fill="#D8D8D8"/></pattern>`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><defs>${checker}</defs><rect width="100%" height="100%" fill="#F4F4F4"/>${parts.join('')}</svg>`;

  await Promise.all([initWasm(), loadResvg()]);
  const png = encodePng(rasterizeSvg(svg, width));
  const out = fileURLToPath(new URL(`../../${file}`, import.meta.url));
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, png);
  console.log(
    `${file}: ${sections.reduce((n, s) => n + s.tiles.length, 0)} tiles, ${width}×${height}, ${(png.byteLength / 1024).toFixed(0)} KB`,
  );
}
