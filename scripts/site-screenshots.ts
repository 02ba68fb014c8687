/**
 * `npm run screenshots`: the site's pages as a newcomer sees them, into docs/screenshots/ (README, "The
 * site"). Starts the engine and the site in this process on an in-memory store, signs a person up through
 * the page, gives them a test pack and a key, makes a few API calls so the dashboard has something to
 * show, and photographs every page in headless Chromium.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config.js';
import { startRoles } from '../src/roles.js';
import { launchChromium } from './chromium.js';

const OUT = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
const CONTENT = 'https://tea.example.com/menu';

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const config = loadConfig({ ...process.env, PORT: '0', SITE_PORT: '0', QR_DATA_DIR: 'memory://' });
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

    await page.goto('/signup');
    await page.getByLabel('E-mail address').fill('ada@example.com');
    await page.getByLabel('Password').fill('a long enough passphrase');
    await shoot('signup');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL('**/dashboard');
    const customer = (await site.accounts.customerByEmail('ada@example.com'))!;
    await site.accounts.grantPack({ customerId: customer.id, credits: 100 });
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
    await page.getByRole('button', { name: 'Bistro Chalk' }).click();
    await page.getByText('Scans: the file was decoded').waitFor();
    await shoot('studio');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.locator('#content').fill(CONTENT);
    await page.getByText('Scans: the file was decoded').waitFor();
    await shoot('studio-phone');

    await page.setViewportSize({ width: 1280, height: 1000 });
    await page.goto('/signin');
    await shoot('signin');
  } finally {
    await browser.close();
    await roles.close();
  }
}

await main();
