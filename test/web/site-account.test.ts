/**
 * The site as a person finishes it, in headless Chromium (playwright-core) against the built engine and
 * site: the docs' quickstart examples (curl, JavaScript, Python) taken from the page and run as shown,
 * with a real key, each file decoded (Swagger's "Try it out" on every /api/v1 route: docs-try-it-out.test.ts);
 * a design saved in the Studio, then listed, renamed, opened and deleted on the dashboard; an order bought
 * on the pricing page, listed with its state and its invoice downloaded; and the pricing page offering
 * only what can be used (top-ups with a Studio pack and server AI; the extension said before payment).
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../scripts/chromium.js';
import {
  type Consumer,
  type ConsumerStore,
  consumerConfig,
  consumerStore,
  GROQ_KEY,
  startConsumer,
} from '../helpers/consumer.js';
import { decodeOne } from '../helpers/decode.js';
import { newestLink, outboxMessages } from '../helpers/mailbox.js';
import { openPage } from '../helpers/browser-page.js';

const PASSWORD = 'a long enough passphrase';
/** Asynchronous: the site under test answers in this process, so a program calling it must not block it. */
const run = promisify(execFile);
let store: ConsumerStore;
let c: Consumer;
let browser: Browser;
let people = 0;
const outbox = mkdtempSync(join(tmpdir(), 'qrfarm-web-account-'));

beforeAll(async () => {
  store = await consumerStore('pglite');
  c = await startConsumer(
    await consumerConfig({
      ...store.env,
      // A server AI key: top-ups are sold (no AI call is made here).
      QR_MANAGED_GROQ_API_KEY: GROQ_KEY,
      QR_LIMIT_SIGNIN: '1000',
      QR_LIMIT_STUDIO: '5000',
      QR_OUTBOX_DIR: outbox,
      QR_SELLER_NAME: 'Example QR Ltd',
      QR_SELLER_ADDRESS: '1 High Street\\nLondon',
      QR_SELLER_TAX_ID: 'GB123456789',
      QR_TAX_PERCENT: '20',
    }),
  );
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await c?.close();
  await store?.close();
  rmSync(outbox, { recursive: true, force: true });
});

const newPage = (width = 1280) =>
  openPage(browser, { viewport: { width, height: 900 }, baseURL: c.siteUrl, acceptDownloads: true });

/** Signs up through the form and opens the mailed link: a verified account; its customer id. */
async function signUp(page: Page): Promise<string> {
  const email = `account-${process.pid}-${people++}@example.com`;
  await page.goto('/signup');
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL('**/dashboard');
  const link = new URL(await newestLink(() => outboxMessages(outbox), email, 'verify-email'));
  await page.goto(link.pathname + link.hash);
  await page.getByText('is confirmed').waitFor();
  return (await c.accounts.customerByEmail(email))!.id;
}

/** A key of a customer with a Studio pack. */
async function keyHolder(): Promise<string> {
  const { id } = await c.accounts.createCustomer(`docs-${process.pid}-${people++}@example.com`);
  await c.accounts.grantPack({ customerId: id, credits: 1 });
  return (await c.accounts.issueKey(id)).key;
}

describe('the docs', () => {
  it('open with a quickstart whose three examples, run as the page shows them with a real key, each write a code that scans', async () => {
    const { page, close } = await newPage();
    await page.goto('/docs');
    const heading = page.getByRole('heading', { name: /Quickstart/ });
    await heading.waitFor();
    const examples: Record<string, string> = {};
    for (const l of ['curl', 'javascript', 'python'])
      examples[l] = (await page.locator(`code[data-example="${l}"]`).textContent())!;
    await close();
    const key = await keyHolder();
    for (const [language, shown] of Object.entries(examples)) {
      expect(shown, language).toContain(`${c.siteUrl}/api/v1/qr/generate`);
      expect(shown, language).toContain('qrf_YOUR_KEY');
      const code = shown.replaceAll('qrf_YOUR_KEY', key);
      const dir = mkdtempSync(join(tmpdir(), `qrfarm-quickstart-${language}-`));
      try {
        if (language === 'curl') await run('bash', ['-c', code], { cwd: dir });
        if (language === 'javascript') {
          writeFileSync(join(dir, 'qr.mjs'), code);
          await run(process.execPath, ['qr.mjs'], { cwd: dir });
        }
        if (language === 'python') {
          writeFileSync(join(dir, 'qr.py'), code);
          await run('python3', ['qr.py'], { cwd: dir });
        }
        const decoded = await decodeOne('png', new Uint8Array(readFileSync(join(dir, 'qr.png'))));
        expect(Buffer.from(decoded.bytes).toString('utf8'), language).toBe('https://example.com');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });
});

describe('the dashboard', () => {
  it('a design saved in the Studio is listed, renamed, opened in the Studio and deleted', async () => {
    const { page, close } = await newPage();
    const customerId = await signUp(page);
    await page.goto('/studio');
    await page.getByLabel('Design name').fill('Shop window');
    await page.getByRole('button', { name: 'Save design' }).click();
    await page.getByText('Saved as “Shop window”').waitFor();
    const [saved] = await c.accounts.listDesigns(customerId);
    expect(saved!.name).toBe('Shop window');

    await page.goto('/dashboard');
    await page.getByRole('cell', { name: 'Shop window', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Rename Shop window' }).click();
    await page.getByLabel('New name for Shop window').fill('Shop window, winter');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByText('Renamed to “Shop window, winter”').waitFor();
    expect((await c.accounts.design(customerId, saved!.id)).name).toBe('Shop window, winter');

    await page.getByRole('link', { name: 'Open Shop window, winter in the Studio' }).click();
    await page.waitForURL(`**/studio?design=${saved!.id}`);
    await page.getByText('Saved design “Shop window, winter” loaded').waitFor();

    await page.goto('/dashboard');
    await page.getByRole('button', { name: 'Delete Shop window, winter' }).click();
    await page
      .getByRole('dialog', { name: 'Delete this design?' })
      .getByRole('button', { name: 'Delete design' })
      .click();
    await page.getByText('No saved designs yet.').waitFor();
    expect(await c.accounts.listDesigns(customerId)).toEqual([]);
    await close();
  });

  it('the pricing page offers top-ups only with a Studio pack, says a second pack extends the first, and the orders list the purchases with their invoices', async () => {
    const { page, close } = await newPage();
    await signUp(page);
    const buy = async (name: RegExp) => {
      await page.goto('/pricing');
      await page.getByRole('radio', { name }).check();
      await page.locator('#withdrawalWaiver\\.consent').check();
      await page.locator('#withdrawalWaiver\\.acknowledgement').check();
      await page.getByRole('button', { name: /^Buy for/ }).click();
      await page.getByRole('heading', { name: 'Order confirmed' }).waitFor();
    };
    await page.goto('/pricing');
    await page.getByText('Top-ups of AI credits add to an active Studio pack').waitFor();
    expect(await page.getByRole('radio').count()).toBe(1);
    await buy(/^Studio pack/);

    await page.goto('/pricing');
    await page.getByText(/buying another now extends it to/).waitFor();
    expect(await page.getByRole('radio').count()).toBe(3);
    await buy(/^500 AI credits/);

    await page.goto('/dashboard');
    const orders = page.getByRole('region', { name: 'Orders and invoices' });
    await orders.getByText('Paid').first().waitFor();
    expect(await orders.getByRole('row').count()).toBe(3);
    const link = orders.getByRole('link', { name: /^Invoice INV-\d+ \(PDF\)$/ }).last();
    const number = (await link.textContent())!.match(/INV-\d+/)![0];
    const [file] = await Promise.all([page.waitForEvent('download'), link.click()]);
    const text = execFileSync('pdftotext', ['-layout', (await file.path())!, '-'], { encoding: 'utf8' });
    for (const expected of [
      `Invoice ${number}`,
      'Example QR Ltd',
      '1 High Street',
      'Tax id: GB123456789',
      'Studio pack',
    ])
      expect(text).toContain(expected);
    expect(text).toMatch(/Tax \(20 %, included in the price\)\s+€4\.83/);
    await close();
  });
});
