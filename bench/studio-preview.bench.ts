/**
 * `npm run bench:studio`: how long the Studio's preview takes to follow a change, in headless Chromium
 * at 1280 × 800, from the change to the new picture decoded in the page: a choice (the error-correction
 * list) and a typed value (a colour typed into its box, the whole value in one input). Each round starts
 * from new content, so no render is answered from the engine's cache. BENCH_PEER=<another build's dist/>
 * starts that build's engine and site too, and the two take turns within every round. `BENCH_ROUNDS`
 * (default 8). The site's Studio limit is lifted (QR_LIMIT_STUDIO) so that no preview waits for it.
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium } from '../scripts/chromium.js';
import type { loadConfig as LoadConfig } from '../src/config.js';
import type { startRoles as StartRoles } from '../src/roles.js';
import { median } from './cases.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
const CHOICES = ['L', 'Q', 'H', 'M'];
const COLOURS = ['#1D3557', '#5A1E0F'];

interface Build {
  name: string;
  origin: string;
  page: Page;
  close: () => Promise<unknown>;
}

async function start(name: string, dist: string): Promise<Omit<Build, 'page'>> {
  const { loadConfig } = (await import(join(dist, 'src/config.js'))) as { loadConfig: typeof LoadConfig };
  const { startRoles } = (await import(join(dist, 'src/roles.js'))) as { startRoles: typeof StartRoles };
  const config = loadConfig({
    ...process.env,
    PORT: '0',
    SITE_PORT: '0',
    QR_DATA_DIR: 'memory://',
    QR_LIMIT_STUDIO: '100000',
  });
  const roles = await startRoles(config, () => {});
  return { name, origin: `http://127.0.0.1:${roles.site!.port}`, close: () => roles.close() };
}

/**
 * In the page: makes the change, then waits for the preview's picture to change and be decoded; the
 * milliseconds between. `kind` is 'choice' (a list's value) or 'typed' (a text box's).
 */
function measure(page: Page, selector: string, value: string, kind: 'choice' | 'typed'): Promise<number> {
  return page.evaluate(
    async ({ selector, value, kind }) => {
      const img = document.querySelector<HTMLImageElement>('#preview .preview-box img')!;
      const before = img.src;
      const control = document.querySelector<HTMLInputElement | HTMLSelectElement>(selector)!;
      const changed = new Promise<void>((resolve) => {
        const seen = new MutationObserver(() => {
          if (img.src !== before) {
            seen.disconnect();
            resolve();
          }
        });
        seen.observe(img, { attributes: true, attributeFilter: ['src'] });
      });
      const t0 = performance.now();
      control.value = value;
      control.dispatchEvent(new Event(kind === 'choice' ? 'change' : 'input', { bubbles: true }));
      await changed;
      await img.decode();
      return performance.now() - t0;
    },
    { selector, value, kind },
  );
}

/** The Studio with `content` typed, its preview drawn and nothing pending. */
async function ready(page: Page, content: string): Promise<void> {
  await page.locator('#content').fill(content);
  await page.locator('#preview .preview-box[aria-busy="false"] img').waitFor();
  await page.getByText('Scans: the file was decoded').waitFor();
  await page.waitForTimeout(500);
}

const browser = await launchChromium();
const builds: Build[] = [];
const peers: [string, string][] = [['this build', join(import.meta.dirname, '..')]];
if (process.env.BENCH_PEER) peers.push(['BENCH_PEER', process.env.BENCH_PEER]);
for (const [name, dist] of peers) {
  const b = await start(name, dist);
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, baseURL: b.origin });
  await page.goto('/studio');
  await page.locator('summary', { hasText: /^Size, format and scanning$/ }).click();
  builds.push({ ...b, page });
}

const times = new Map<string, number[]>();
const note = (name: string, ms: number) => times.set(name, [...(times.get(name) ?? []), ms]);
for (let round = 0; round <= ROUNDS; round++) {
  // Round 0 warms every module, worker and page up; it is not counted.
  for (const b of round % 2 === 0 ? builds : [...builds].reverse()) {
    await ready(b.page, `https://example.com/menu?round=${round}&build=${b.name.length}`);
    for (const ecc of CHOICES) {
      const ms = await measure(b.page, '#f-eccLevel', ecc, 'choice');
      if (round > 0) note(`a choice (error correction): ${b.name}`, ms);
    }
    for (const colour of COLOURS) {
      const ms = await measure(b.page, '#f-primaryColor', colour, 'typed');
      if (round > 0) note(`a typed colour: ${b.name}`, ms);
    }
  }
}

console.log(`${ROUNDS} rounds, ms from the change to the new preview decoded, load ${loadavg()[0]!.toFixed(1)}`);
console.table(
  [...times]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, ms]) => ({
      case: name,
      n: ms.length,
      median: median(ms).toFixed(0),
      min: Math.min(...ms).toFixed(0),
      max: Math.max(...ms).toFixed(0),
    })),
);
await browser.close();
for (const b of builds) await b.close();
