import type { Browser } from 'playwright-core';

/** Debian's chromium (`.ci/run` installs it); QR_CHROMIUM points elsewhere. */
export const CHROMIUM_PATH = process.env.QR_CHROMIUM || '/usr/bin/chromium';

/**
 * Headless Chromium through playwright-core, which downloads no browser of its own: each launch gets a
 * fresh temporary profile, and nothing in the background talks to the network (no updates, no sync).
 */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}
