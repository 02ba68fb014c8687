/**
 * The Studio as a person finishes a design in it, in Debian's headless Chromium (playwright-core) against
 * the built engine and site started in this process: the preview stays in view on a phone and on a
 * desktop while a control far down the page changes; the 118 templates are one stop of the Tab key and
 * the arrow keys move among them; a choice asks for its preview at once and typing waits for a pause
 * (the page's clock is paused, so what is sent without a timer is told from what waits for one, with
 * no timing); a design that does not verify downloads only after a question, under an unverified name;
 * and what the Studio says is in words, the engine's wording behind a "Details" toggle, each problem once.
 * The usage chart's day labels do not overlap, on a desktop and a phone.
 */
import { readFileSync } from 'node:fs';
import type { Browser, Locator, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../scripts/chromium.js';
import {
  type Consumer,
  type ConsumerStore,
  call,
  consumerConfig,
  consumerStore,
  startConsumer,
} from '../helpers/consumer.js';
import { decodeOne } from '../helpers/decode.js';
import { openPage } from '../helpers/browser-page.js';

const CONTENT = 'https://shop.example.com/menu?table=12';
/** 1.30:1: both decoders read it, but the contrast check fails, so it is not verified. */
const LOW_CONTRAST = { primaryColor: '#777777', backgroundColor: '#8A8A8A' };
/** 1.13:1: nothing reads it, so even without strict scannability the engine refuses it. */
const UNREADABLE = { primaryColor: '#333333', backgroundColor: '#3B3B3B' };
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

let store: ConsumerStore;
let c: Consumer;
let browser: Browser;
let people = 0;

beforeAll(async () => {
  store = await consumerStore('pglite');
  c = await startConsumer(
    await consumerConfig({
      ...store.env,
      // Every test renders from 127.0.0.1; the limit itself is checked in test/site/visitors.test.ts.
      QR_LIMIT_STUDIO: '5000',
      QR_LIMIT_SIGNIN: '1000',
    }),
  );
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await c?.close();
  await store?.close();
});

/** A fresh context at `viewport`; `close` fails the test if any page script threw. */
const newPage = (viewport = DESKTOP) => openPage(browser, { viewport, baseURL: c.siteUrl, acceptDownloads: true });

/** The Studio with the content typed and its preview (of that content, none pending) verified. */
async function openStudio(page: Page): Promise<void> {
  await page.goto('/studio');
  // The page's first preview (of its example content) may show "Scans" before the typed content's render
  // has even been sent: wait for that render's answer, so no render of the content is still to come.
  const contentRendered = page.waitForResponse(
    (r) => r.url().endsWith('/api/studio/render') && (r.request().postData() ?? '').includes(JSON.stringify(CONTENT)),
  );
  await page.locator('#content').fill(CONTENT);
  await contentRendered;
  await page.locator('#preview .preview-box[aria-busy="false"]').waitFor();
  await page.getByText('Scans: the file was decoded').waitFor();
}

const openGroup = (page: Page, title: string) => page.locator('summary', { hasText: new RegExp(`^${title}$`) }).click();

/** “Fix problems automatically” off, and the two colours set. */
async function unfixedColours(page: Page, colours: { primaryColor: string; backgroundColor: string }) {
  await openGroup(page, 'Size, format and scanning');
  await page.getByLabel('Fix problems automatically').uncheck();
  await page.locator('#f-primaryColor').fill(colours.primaryColor);
  await page.locator('#f-backgroundColor').fill(colours.backgroundColor);
}

/** Whether the element's box lies wholly inside the window. */
async function inView(page: Page, selector: string): Promise<boolean> {
  const box = await page.locator(selector).boundingBox();
  const { width, height } = page.viewportSize()!;
  return box !== null && box.y >= 0 && box.x >= 0 && box.y + box.height <= height && box.x + box.width <= width;
}

/**
 * The text a person sees in it: the rendered text, which leaves out what a closed <details> holds (the
 * point of these checks), where textContent would not.
 */
// biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what is checked.
const shown = (l: Locator) => l.innerText();

const previewSrc = (page: Page, selector: string) => page.locator(selector).getAttribute('src');

describe('the preview stays in view while a control far down the page changes', () => {
  for (const [name, viewport, image] of [
    ['a phone, 390 × 844 (the docked preview)', PHONE, '[data-testid="preview-dock"] img'],
    ['a desktop, 1280 × 800 (the preview beside the controls)', DESKTOP, '#preview .preview-box img'],
  ] as const) {
    it(name, async () => {
      const { page, close } = await newPage(viewport);
      await openStudio(page);
      await openGroup(page, 'Size, format and scanning');
      const control = page.locator('#f-minVersion');
      await control.scrollIntoViewIfNeeded();
      // Far down: the control is more than two windows below the top of the page.
      const scrolled = await page.evaluate(() => window.scrollY);
      expect(scrolled).toBeGreaterThan(2 * viewport.height);
      const before = await previewSrc(page, image);
      await control.fill('10');
      await page.locator('#preview').getByText('Version 10 (57 × 57 modules)').waitFor();
      // The image in view is the new render: the same picture as the full preview's, not the one before.
      await expect.poll(() => previewSrc(page, image)).toBe(await previewSrc(page, '#preview .preview-box img'));
      expect(await previewSrc(page, image)).not.toBe(before);
      // The dock shows itself from an IntersectionObserver's callback, which may come a frame after the render.
      await expect.poll(() => inView(page, image)).toBe(true);
      await expect.poll(() => inView(page, '#f-minVersion')).toBe(true);
      // The page did not move to show it.
      expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
      if (viewport === PHONE) {
        // The dock covers no part of the control being changed.
        const dock = (await page.getByTestId('preview-dock').boundingBox())!;
        const box = (await control.boundingBox())!;
        expect(box.y + box.height).toBeLessThanOrEqual(dock.y);
        // Once the full preview is in sight, the dock steps aside.
        await page.locator('#preview').scrollIntoViewIfNeeded();
        await expect.poll(() => page.getByTestId('preview-dock').isHidden()).toBe(true);
      } else {
        expect(await page.getByTestId('preview-dock').isHidden()).toBe(true);
      }
      await close();
    });
  }
});

describe('the templates are one tab stop', () => {
  it('reaches “Module shape” in a few Tabs, one of them for all the templates; arrows move, Enter loads', async () => {
    const { page, close } = await newPage();
    await page.goto('/studio');
    const options = page.getByRole('listbox', { name: /Start from a template/ }).getByRole('option');
    const { count } = (await call(c.siteUrl, '/api/studio/templates')).body;
    await expect.poll(() => options.count()).toBe(count);
    expect(count).toBe(118);
    expect(await page.locator('.templates [tabindex="0"]').count()).toBe(1);

    const stops: { inList: boolean; label: string }[] = [];
    for (let i = 0; i < 200; i++) {
      await page.keyboard.press('Tab');
      const stop = await page.evaluate(() => {
        const a = document.activeElement as HTMLElement | null;
        return {
          inList: a?.closest('[role="listbox"]') !== null,
          label: `${a?.tagName} ${a?.getAttribute('name') ?? a?.id ?? ''} ${a?.textContent?.slice(0, 20) ?? ''}`,
          moduleShape: a?.getAttribute('name') === 'moduleShape',
        };
      });
      stops.push(stop);
      if (stop.moduleShape) break;
    }
    expect(stops.at(-1)!.label).toMatch(/^INPUT moduleShape/);
    expect(stops.filter((s) => s.inList)).toHaveLength(1);
    expect(stops.length).toBeLessThan(30);

    // The Tab stop in the list is its first template; the arrows move through the grid.
    const focused = () => page.evaluate(() => document.activeElement?.textContent ?? '');
    const names: string[] = await options.allTextContents();
    await options.first().focus();
    await page.keyboard.press('ArrowRight');
    expect(await focused()).toBe(names[1]);
    const columns = await page.evaluate(() => {
      const all = [...document.querySelectorAll<HTMLElement>('[role="option"]')];
      return all.filter((o) => o.offsetTop === all[0]!.offsetTop).length;
    });
    expect(columns).toBeGreaterThan(1);
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe(names[1 + columns]);
    await page.keyboard.press('ArrowLeft');
    expect(await focused()).toBe(names[columns]);
    await page.keyboard.press('End');
    expect(await focused()).toBe(names[count - 1]);
    await page.keyboard.press('Home');
    expect(await focused()).toBe(names[0]);
    // Moving chooses nothing; Enter loads the template in focus, and it alone is the Tab stop after.
    expect(await page.locator('[role="option"][aria-selected="true"]').count()).toBe(0);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await page.getByText(`Template “${names[1]}” loaded`).waitFor();
    expect(await page.locator('[role="option"][aria-selected="true"]').allTextContents()).toEqual([names[1]]);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press(' ');
    await page.getByText(`Template “${names[2]}” loaded`).waitFor();
    expect(await page.locator('[role="option"][aria-selected="true"]').allTextContents()).toEqual([names[2]]);
    expect(await page.locator('.templates [tabindex="0"]').allTextContents()).toEqual([names[2]]);
    await close();
  });
});

describe('how soon the preview is asked for', () => {
  it('a choice sends its render at once, typing waits for a pause, and a newer change aborts the one running', async () => {
    const { page, close } = await newPage();
    await page.clock.install();
    await openStudio(page);
    await openGroup(page, 'Size, format and scanning');
    const sent: Request[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/studio/render')) sent.push(r);
    });
    // Timers stop: whatever is sent now was sent without waiting for one.
    await page.clock.pauseAt(Date.now() + 60_000);

    await page.getByLabel('Error correction', { exact: true }).selectOption('Q');
    await expect.poll(() => sent.map((r) => r.postData())).toHaveLength(1);
    expect(JSON.parse(sent[0]!.postData()!)).toMatchObject({ content: CONTENT, eccLevel: 'Q' });
    await page.locator('#preview').getByText('error correction Q').waitFor();

    // A key typed waits for the pause: with the clock stopped, the render is not sent…
    await page.locator('#f-primaryColor').pressSequentially('#1D3557');
    await page.locator('#preview').getByText('Updating the preview').waitFor();
    expect(sent).toHaveLength(1);
    // …until the clock passes the pause after the last key; then one render for the whole colour.
    await page.clock.runFor(1000);
    await expect.poll(() => sent.length).toBe(2);
    expect(JSON.parse(sent[1]!.postData()!)).toMatchObject({ primaryColor: '#1D3557', eccLevel: 'Q' });
    await page.locator('#preview').getByText('Scans: the file was decoded').waitFor();

    // A render held on its way, then a newer choice: the first is aborted, the second shown.
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let first = true;
    await page.route('**/api/studio/render', async (route) => {
      if (!first) return route.continue();
      first = false;
      await held;
      await route.continue().catch(() => {});
    });
    const aborted = page.waitForEvent('requestfailed', (r) => r.url().endsWith('/api/studio/render'));
    await page.getByLabel('Error correction', { exact: true }).selectOption('L');
    await expect.poll(() => sent.length).toBe(3);
    await page.getByLabel('Error correction', { exact: true }).selectOption('H');
    expect((await aborted).postData()).toContain('"eccLevel":"L"');
    await page.locator('#preview').getByText('error correction H').waitFor();
    release();
    expect(JSON.parse(sent.at(-1)!.postData()!)).toMatchObject({ eccLevel: 'H' });
    await close();
  });
});

describe('a design that does not verify', () => {
  it('asks before the download, and Cancel saves nothing; Download anyway saves it as unverified', async () => {
    const { page, close } = await newPage();
    await openStudio(page);
    await unfixedColours(page, LOW_CONTRAST);
    await page.getByText('May not scan: the code and background colours are too close together').waitFor();
    const downloads: string[] = [];
    page.on('download', (d) => downloads.push(d.suggestedFilename()));

    await page.getByRole('button', { name: 'Download PNG' }).click();
    const dialog = page.getByRole('dialog', { name: 'This code may not scan. Download it anyway?' });
    await dialog.waitFor();
    await dialog
      .getByText('Phones may fail to read it: the code and background colours are too close together')
      .waitFor();
    await dialog.getByText('the file is named qrcode-unverified.png').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page.getByText('Nothing was downloaded: the PNG was not verified.').waitFor();
    await expect.poll(() => dialog.isHidden()).toBe(true);
    expect(downloads).toEqual([]);

    await page.getByRole('button', { name: 'Download PNG' }).click();
    await dialog.waitFor();
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Download anyway' }).click(),
    ]);
    expect(file.suggestedFilename()).toBe('qrcode-unverified.png');
    await page.getByText('PNG downloaded as qrcode-unverified.png').waitFor();
    const bytes = new Uint8Array(readFileSync((await file.path())!));
    // The file is the engine's: the same PNG it sends for this design, and it reads back the content.
    const body = JSON.parse((await page.getByTestId('design-json').textContent()) ?? '');
    const direct = await call(c.siteUrl, '/api/studio/render', { body: { ...body, responseType: 'binary' } });
    expect(direct.headers.get('x-qr-contrast-ratio')).toBe('1.3');
    expect(Buffer.from(bytes).equals(Buffer.from(direct.bytes))).toBe(true);
    const decoded = await decodeOne('png', bytes);
    expect(decoded.text).toBe(CONTENT);
    expect(Buffer.from(decoded.bytes).equals(Buffer.from(CONTENT))).toBe(true);
    expect(downloads).toEqual(['qrcode-unverified.png']);
    await close();
  });
});

describe('words for people', () => {
  it('a refusal says why in words, naming the fields as labelled; the engine’s wording is behind Details', async () => {
    const { page, close } = await newPage();
    await openStudio(page);
    await unfixedColours(page, UNREADABLE);
    const notice = page.locator('#preview .notice.error');
    await notice
      .getByText(
        'This design cannot be made to scan: the code and background colours are too close together, and no scanner the file is checked with could read it.',
      )
      .waitFor();
    const details = notice.locator('details');
    expect(await details.evaluate((d: HTMLDetailsElement) => d.open)).toBe(false);
    const visible = await shown(notice);
    expect(visible).not.toMatch(/zxing|zbar|QR_UNSCANNABLE|primaryColor/);
    await details.locator('summary').click();
    const opened = await shown(notice);
    expect(opened).toContain('neither zxing nor zbar decodes');
    expect(opened).toContain('code QR_UNSCANNABLE, HTTP 422');

    // A refusal of one field names it as its label does, at the field and in the preview.
    await page.locator('#f-primaryColor').fill('#000000');
    await page.locator('#f-backgroundColor').fill('#FFFFFF');
    await page.getByText('Scans: the file was decoded').waitFor();
    await openGroup(page, 'Logo');
    await page
      .locator('#f-logoBase64')
      .setInputFiles({ name: 'logo.png', mimeType: 'text/plain', buffer: Buffer.from('not a picture') });
    await notice.getByText('“Logo” is not a PNG, JPG, GIF, BMP or WebP image.').waitFor();
    await page.locator('#f-logoBase64-error').getByText('“Logo” is not a PNG').waitFor();
    expect(await shown(notice)).not.toContain('logoBase64');
    await notice.locator('summary').click();
    expect(await shown(notice)).toContain('field logoBase64');
    await close();
  });

  it('a warning the verification already reports is said once; empty colours say what they stand for', async () => {
    const { page, close } = await newPage();
    await openStudio(page);
    await unfixedColours(page, LOW_CONTRAST);
    const report = page.getByTestId('verification');
    await report.getByText('May not scan').waitFor();
    const visible = await shown(report);
    expect(visible.match(/1\.3:1/g)).toHaveLength(1);
    expect(visible.match(/too close together/g)).toHaveLength(1);
    expect(visible).not.toMatch(/primaryColor|below 4:1|zxing|zbar|Warnings/);
    // The engine's two wordings of the same problem are in the details, for whoever wants them.
    await report.locator('summary').click();
    const opened = await shown(report);
    expect(opened).toContain('contrast 1.30:1 is below 4:1');
    expect(opened).toContain('primaryColor has a contrast of 1.30:1 with the background, below 4:1.');

    // The rings follow the code colour, and say so with the colour chosen, not the service's black.
    await openGroup(page, 'Eyes');
    expect(await page.locator('#f-finderOuterColor').getAttribute('placeholder')).toBe('Same as Code colour, #777777');
    expect(await page.locator('#f-finderEyes-0-outerColor').getAttribute('placeholder')).toBe(
      'Same as Ring colour, #777777',
    );
    await page.locator('#f-finderOuterColor').fill('#123456');
    expect(await page.locator('#f-finderEyes-0-outerColor').getAttribute('placeholder')).toBe(
      'Same as Ring colour, #123456',
    );
    expect((await page.locator('#f-primaryColor').getAttribute('placeholder')) ?? '').toBe('');
    await close();
  });

  it('the usage chart’s day labels do not overlap and keep their size, on a desktop and on a phone', async () => {
    const { page, close } = await newPage();
    await page.goto('/signup');
    await page.getByLabel('E-mail address').fill(`chart-${process.pid}-${people++}@example.com`);
    await page.getByLabel('Password').fill('a long enough passphrase');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL('**/dashboard');
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      // Drawn anew at the chart's width once the page has its new size.
      await expect
        .poll(() =>
          page.evaluate(() => {
            const chart = document.querySelector<HTMLElement>('.chart');
            const svg = chart?.querySelector('svg');
            return svg ? Number(svg.getAttribute('width')) === Math.max(280, chart!.clientWidth) : false;
          }),
        )
        .toBe(true);
      const labels = await page.evaluate(() =>
        [...document.querySelectorAll('.chart svg text')]
          .filter((t) => /^\d\d-\d\d$/.test(t.textContent ?? ''))
          .map((t) => ({ text: t.textContent, box: t.getBoundingClientRect().toJSON() as DOMRect })),
      );
      expect(labels.length).toBeGreaterThan(1);
      const boxes = labels.map((l) => l.box).sort((a, b) => a.x - b.x);
      for (let i = 1; i < boxes.length; i++)
        expect(boxes[i]!.x, `label ${i}`).toBeGreaterThan(boxes[i - 1]!.x + boxes[i - 1]!.width);
      // Drawn at the page's size, not shrunk with the picture: at least 11 px tall on either screen.
      for (const b of boxes) expect(b.height).toBeGreaterThanOrEqual(11);
      // Today's day is labelled.
      expect(labels.map((l) => l.text)).toContain(new Date().toISOString().slice(5, 10));
    }
    await close();
  });
});
