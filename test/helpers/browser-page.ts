import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { expect } from 'vitest';

/** A page in a context of its own; `close` closes it and fails the test if any script on the page threw. */
export async function openPage(
  browser: Browser,
  options: BrowserContextOptions,
): Promise<{ page: Page; close(): Promise<void> }> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return {
    page,
    close: async () => {
      await context.close();
      expect(errors).toEqual([]);
    },
  };
}
