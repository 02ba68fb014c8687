/**
 * The Studio's bulk page in a real browser: the built engine and site (QR_ROLE=all, the embedded defaults)
 * driven by Debian's headless Chromium through playwright-core. A person signs up, has a Studio pack, uploads
 * a CSV, sees its columns mapped, starts the job, watches the progress bar move as the events come, and
 * downloads the ZIP, whose every file decodes with both decoder families to its row's content.
 */
import { readFileSync } from 'node:fs';
import { unzipSync } from 'fflate';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../scripts/chromium.js';
import { type Consumer, consumerConfig, startConsumer } from '../helpers/consumer.js';
import { decodeOne, decodeWithZbar } from '../helpers/decode.js';

const ROWS = 300;
const contentOf = (row: number) => `https://venue.example.com/table/${row}`;

let c: Consumer;
let browser: Browser;

beforeAll(async () => {
  c = await startConsumer(await consumerConfig({ QR_DATA_DIR: 'memory://', QR_LIMIT_SIGNIN: '1000' }));
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await c?.close();
});

async function signUp(page: Page): Promise<string> {
  const email = `bulk-${process.pid}-${Date.now()}@example.com`;
  await page.goto('/signup');
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password').fill('a long enough passphrase');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL('**/dashboard');
  // An address not yet verified is not the customer's yet: the session says whose account it is.
  return page.evaluate(async () => (await (await fetch('/api/session')).json()).user.customerId as string);
}

describe('the bulk page', () => {
  it('from upload to download: columns mapped, the progress bar moving, a ZIP of codes that decode', async () => {
    const context = await browser.newContext({ baseURL: c.siteUrl, acceptDownloads: true });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const customerId = await signUp(page);
    await c.accounts.grantPack({ customerId, credits: 1 });

    await page.goto('/bulk');
    const csv = ['content,filename,moduleShape,outputWidth'];
    for (let row = 1; row <= ROWS; row++)
      csv.push(`${contentOf(row)},table-${row}.png,${row % 2 ? 'dots' : 'square'},400`);
    await page
      .locator('#bulk-file')
      .setInputFiles({ name: 'tables.csv', mimeType: 'text/csv', buffer: Buffer.from(csv.join('\n')) });
    const mapping = page.locator('#bulk-columns');
    await expect.poll(() => mapping.locator('tbody tr').count()).toBe(4);
    expect(await mapping.textContent()).toContain('the content of each code');
    expect(await mapping.textContent()).toContain('a design field, for its row');
    await page.getByRole('button', { name: `Make ${ROWS} codes` }).click();

    // The bar's values as the page shows them, until the download appears.
    const values = new Set<number>();
    const progress = page.locator('#bulk-progress');
    await progress.waitFor();
    while ((await page.locator('#bulk-download').count()) === 0) {
      values.add(Number(await progress.getAttribute('value')));
      await page.waitForTimeout(50);
    }
    values.add(Number(await progress.getAttribute('value')));
    const seen = [...values].sort((a, b) => a - b);
    expect(seen.at(-1)).toBe(1);
    expect(seen.filter((v) => v > 0 && v < 1).length).toBeGreaterThan(0);

    const [file] = await Promise.all([page.waitForEvent('download'), page.locator('#bulk-download').click()]);
    const files = unzipSync(new Uint8Array(readFileSync((await file.path())!)));
    expect(Object.keys(files).length).toBe(ROWS + 1);
    for (let row = 1; row <= ROWS; row++) {
      const png = files[`table-${row}.png`]!;
      expect((await decodeOne('png', png)).text).toBe(contentOf(row));
      expect((await decodeWithZbar('png', png)).map((b) => Buffer.from(b).toString())).toEqual([contentOf(row)]);
    }
    await context.close();
    expect(errors).toEqual([]);
  }, 300_000);
});
