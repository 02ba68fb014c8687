/**
 * `npm run screenshots`: the site's pages as a newcomer sees them, into docs/screenshots/ (README, "The
 * site"). Starts the engine and the site in this process on an in-memory store, signs a person up through
 * the page, gives them a test pack and a key, makes a few API calls so the dashboard has something to
 * show, and photographs every page in headless Chromium.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CATALOGUE } from '../src/checkout/catalogue.js';
import { CURRENT_WAIVER } from '../src/checkout/waiver.js';
import { loadConfig } from '../src/config.js';
import { startRoles } from '../src/roles.js';
import { launchChromium } from './chromium.js';

const OUT = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
const CONTENT = 'https://tea.example.com/menu';

/** The address-confirmation link the site wrote to its outbox folder (quoted-printable undone), once it is there. */
async function verifyLink(outbox: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    for (const name of readdirSync(outbox).filter((f) => f.startsWith('verify-'))) {
      const text = readFileSync(join(outbox, name), 'utf8')
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
      const link = /https?:\/\/\S+\/verify-email#token=[\w-]{43}/.exec(text)?.[0];
      if (link) return link;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('no confirmation link in the outbox');
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const outbox = mkdtempSync(join(tmpdir(), 'qrfarm-screenshots-'));
  // An example seller for the invoice's picture, unless the environment names one.
  const config = loadConfig({
    QR_SELLER_NAME: 'Example QR Ltd',
    QR_SELLER_ADDRESS: '1 High Street\\nLondon EC1A 1AA\\nUnited Kingdom',
    QR_SELLER_TAX_ID: 'GB123456789',
    QR_TAX_PERCENT: '20',
    ...process.env,
    PORT: '0',
    SITE_PORT: '0',
    QR_DATA_DIR: 'memory://',
    QR_OUTBOX_DIR: outbox,
  });
  const roles = await startRoles(config, () => {});
  const site = roles.site!;
  const origin = `http://127.0.0.1:${site.port}`;
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 }, baseURL: origin });
    const shoot = async (name: string) => {
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: `${OUT}${name}.png` });
      console.log(`docs/screenshots/${name}.png`);
    };
    for (const [path, name] of [
      ['/', 'home'],
      ['/pricing', 'pricing'],
      ['/docs', 'docs'],
    ] as const) {
      await page.goto(path);
      await shoot(name);
    }
    await page.locator('section[aria-labelledby="quickstart"]').screenshot({ path: `${OUT}docs-quickstart.png` });
    console.log('docs/screenshots/docs-quickstart.png');

    await page.goto('/signup');
    await page.getByLabel('E-mail address').fill('ada@example.com');
    await page.getByLabel('Password').fill('a long enough passphrase');
    await shoot('signup');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL('**/dashboard');
    // Keys and orders need the address confirmed, as a person does from the mail.
    const link = new URL(await verifyLink(outbox));
    await page.goto(link.pathname + link.hash);
    await page.getByText('is confirmed').waitFor();
    await page.goto('/dashboard');
    const user = (await page.request.get('/api/session').then((r) => r.json())).user;
    // A paid order, as test mode's checkout records one, so the orders have an invoice to show.
    const studio = CATALOGUE.offer('studio')!;
    const order = await site.accounts.createOrder({
      customerId: user.customerId,
      offer: {
        id: studio.id,
        kind: studio.kind,
        credits: studio.credits,
        price: studio.price,
        currency: studio.currency,
      },
      provider: 'test',
      waiver: { textVersion: CURRENT_WAIVER.version, textSha256: CURRENT_WAIVER.sha256 },
    });
    await site.accounts.paymentSucceeded({ orderId: order.id });
    await page.reload();
    await page.getByLabel('Name (optional)').fill('shop backend');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = await page.getByLabel('API key', { exact: true }).inputValue();
    for (let i = 0; i < 5; i++) {
      await fetch(`${origin}/api/v1/qr/generate`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ content: `${CONTENT}?${i}`, outputWidth: 256 }),
      });
    }
    await fetch(`${origin}/api/v1/ping`, { headers: { 'x-api-key': key } });
    await page.evaluate(() => window.scrollTo(0, 0));
    await shoot('dashboard');

    await page.goto('/studio');
    await page.locator('#content').fill(CONTENT);
    await page.getByLabel('Category').selectOption('restaurant');
    await page.getByRole('option', { name: 'Bistro Chalk' }).click();
    await page.getByText('Scans: the file was decoded').waitFor();
    await shoot('studio');

    // Saved designs: two saved from the Studio, listed on the dashboard.
    for (const name of ['Tea room menu', 'Table cards']) {
      await page.getByLabel('Design name').fill(name);
      await page.getByRole('button', { name: 'Save design' }).click();
      await page.getByText(`Saved as “${name}”`).waitFor();
    }
    await page.goto('/dashboard');
    await page.getByRole('cell', { name: 'Table cards', exact: true }).waitFor();
    await page.waitForLoadState('networkidle');
    await page.locator('section[aria-labelledby="designs-title"]').screenshot({ path: `${OUT}designs.png` });
    await page.locator('section[aria-labelledby="orders-title"]').screenshot({ path: `${OUT}orders.png` });
    console.log('docs/screenshots/designs.png\ndocs/screenshots/orders.png');
    const invoice = await page.request.get(`/api/account/orders/${order.id}/invoice.pdf`);
    execFileSync('pdftoppm', ['-png', '-r', '60', '-singlefile', '-', `${OUT}invoice`], {
      input: Buffer.from(await invoice.body()),
    });
    console.log('docs/screenshots/invoice.png');

    await page.goto('/studio');
    await page.locator('#content').fill(CONTENT);
    await page.getByText('Scans: the file was decoded').waitFor();
    // A design left as drawn that does not verify: the download asks first.
    await page.locator('summary', { hasText: /^Size, format and scanning$/ }).click();
    await page.getByLabel('Fix problems automatically').uncheck();
    await page.locator('#f-primaryColor').fill('#777777');
    await page.locator('#f-backgroundColor').fill('#8A8A8A');
    await page.getByTestId('verification').getByText('May not scan').waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.locator('.preview-pane').evaluate((pane) => pane.scrollTo(0, 0));
    await page.getByRole('button', { name: 'Download PNG' }).click();
    await page.getByRole('dialog').waitFor();
    await shoot('studio-unverified');

    // On a phone, editing a colour half-way down the page, the preview docked below it.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/studio');
    await page.locator('#content').fill(CONTENT);
    await page.getByText('Scans: the file was decoded').waitFor();
    await page.locator('#f-primaryColor').scrollIntoViewIfNeeded();
    await page.locator('#f-primaryColor').fill('#1B4332');
    await page.locator('#preview .preview-box[aria-busy="false"]').waitFor();
    await shoot('studio-phone');

    await page.setViewportSize({ width: 1280, height: 1000 });
    await page.goto('/signin');
    await shoot('signin');
  } finally {
    await browser.close();
    await roles.close();
    rmSync(outbox, { recursive: true, force: true });
  }
}

await main();
