/**
 * Saved designs on the consumer site over real HTTP: saved, listed, renamed, replaced and deleted by the
 * signed-in account (session and CSRF), bounded in count and size, each its customer's only; and rendered
 * with new content by an API key through POST /api/v1/qr/designs/:id, every file decoded. Accounts on
 * PGlite and on the real PostgreSQL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Consumer,
  type ConsumerStore,
  call,
  consumerConfig,
  consumerStore,
  refusal,
  startConsumer,
} from '../helpers/consumer.js';
import { DRIVERS, type DriverName } from '../helpers/databases.js';
import { decodeOne } from '../helpers/decode.js';
import { SiteBrowser } from '../helpers/site-browser.js';

const DESIGN = {
  moduleShape: 'dots',
  finderOuterShape: 'rounded',
  primaryColor: '#1B3A4B',
  backgroundColor: '#F7F3E8',
  fileFormat: 'png',
  responseType: 'binary',
};

function designsSuite(driver: DriverName): void {
  describe(`saved designs, accounts on ${driver}`, () => {
    let store: ConsumerStore;
    let c: Consumer;
    let people = 0;
    const outbox = mkdtempSync(join(tmpdir(), `qrfarm-designs-${driver}-`));
    const person = async () => {
      const b = new SiteBrowser(c.siteUrl);
      await b.verifiedAccount(outbox, `designs-${driver}-${process.pid}-${people++}@example.com`);
      return b;
    };

    beforeAll(async () => {
      store = await consumerStore(driver);
      c = await startConsumer(
        await consumerConfig({ ...store.env, QR_OUTBOX_DIR: outbox, QR_LIMIT_GENERATION: '1000' }),
      );
    });
    afterAll(async () => {
      await c?.close();
      await store?.close();
      rmSync(outbox, { recursive: true, force: true });
    });

    it('saves, lists, renames, replaces and deletes; the content is never kept', async () => {
      const b = await person();
      const saved = await b.send('/api/account/designs', {
        name: 'Tea room',
        config: { ...DESIGN, content: 'https://not-kept.example' },
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      const { id } = saved.body.design;
      expect(saved.body.design).toMatchObject({ id: expect.stringMatching(/^dsg_/), name: 'Tea room', config: DESIGN });
      expect(saved.body.design.config.content).toBeUndefined();

      const renamed = await b.request('PATCH', `/api/account/designs/${id}`, { name: 'Tea room, autumn' });
      expect(renamed.body.design).toMatchObject({ name: 'Tea room, autumn', config: DESIGN });
      const recoloured = await b.request('PATCH', `/api/account/designs/${id}`, {
        config: { ...DESIGN, primaryColor: '#5A2D0C' },
      });
      expect(recoloured.body.design).toMatchObject({ name: 'Tea room, autumn', config: { primaryColor: '#5A2D0C' } });
      const list = await b.send('/api/account/designs');
      expect(list.body.designs.map((d: { id: string; name: string }) => [d.id, d.name])).toEqual([
        [id, 'Tea room, autumn'],
      ]);

      expect((await b.request('DELETE', `/api/account/designs/${id}`)).status).toBe(200);
      expect((await b.send('/api/account/designs')).body.designs).toEqual([]);
      expect(refusal(await b.request('DELETE', `/api/account/designs/${id}`))).toEqual({
        status: 404,
        success: false,
        code: 'design_not_found',
      });
    });

    it('belongs to its customer only: another account’s id is 404 everywhere, the API included', async () => {
      const owner = await person();
      const { id } = (await owner.send('/api/account/designs', { name: 'Mine', config: DESIGN })).body.design;
      const other = await person();
      await other.send('/api/checkout', {
        packId: 'studio',
        withdrawalWaiver: { consent: true, acknowledgement: true, textVersion: '2026-11-en' },
      });
      const notFound = { status: 404, success: false, code: 'design_not_found' };
      expect(refusal(await other.request('PATCH', `/api/account/designs/${id}`, { name: 'Stolen' }))).toEqual(notFound);
      expect(refusal(await other.request('DELETE', `/api/account/designs/${id}`))).toEqual(notFound);
      expect((await other.send('/api/account/designs')).body.designs).toEqual([]);
      const { key } = await c.accounts.issueKey(other.customerId);
      expect(refusal(await call(c.siteUrl, `/api/v1/qr/designs/${id}`, { key, body: { content: 'x' } }))).toEqual(
        notFound,
      );
      expect((await owner.send('/api/account/designs')).body.designs[0].name).toBe('Mine');
    });

    it('needs the sign-in cookie and its CSRF token', async () => {
      const b = await person();
      expect(refusal(await call(c.siteUrl, '/api/account/designs'))).toMatchObject({
        status: 401,
        code: 'session_required',
      });
      const { id } = (await b.send('/api/account/designs', { name: 'A', config: DESIGN })).body.design;
      const forged = await b.request('DELETE', `/api/account/designs/${id}`, undefined, { 'x-csrf-token': 'forged' });
      expect(refusal(forged)).toMatchObject({ status: 403, code: 'csrf_failed' });
      expect((await b.send('/api/account/designs')).body.designs).toHaveLength(1);
    });

    it('refuses a design the engine would not take, naming the field inside it, and an empty change', async () => {
      const b = await person();
      const bad = await b.send('/api/account/designs', { name: 'Bad', config: { moduleShape: 'hexagrams' } });
      expect({ status: bad.status, code: bad.body.code, field: bad.body.field }).toEqual({
        status: 400,
        code: 'INVALID_FIELD_VALUE',
        field: 'config.moduleShape',
      });
      const noName = await b.send('/api/account/designs', { name: '', config: DESIGN });
      expect({ code: noName.body.code, field: noName.body.field }).toEqual({ code: 'invalid_body', field: 'name' });
      expect(noName.body.error).toBe('Design name must be filled in, with at most 100 characters.');
      const { id } = (await b.send('/api/account/designs', { name: 'Fine', config: DESIGN })).body.design;
      const empty = await b.request('PATCH', `/api/account/designs/${id}`, {});
      expect(refusal(empty)).toMatchObject({ status: 400, code: 'invalid_body' });
    });

    it('bounds the count (50) and the size (512 KiB) of an account’s designs', async () => {
      const b = await person();
      const big = await b.send('/api/account/designs', {
        name: 'Huge logo',
        config: { ...DESIGN, logoBase64: 'A'.repeat(520 * 1024) },
      });
      expect({ ...refusal(big), field: big.body.field }).toEqual({
        status: 413,
        success: false,
        code: 'design_too_large',
        field: 'config',
      });
      // Saved at once: the count is taken under the customer's row lock.
      const saves = await Promise.all(
        Array.from({ length: 52 }, (_, i) => b.send('/api/account/designs', { name: `Design ${i}`, config: DESIGN })),
      );
      expect(saves.filter((a) => a.status === 200)).toHaveLength(50);
      expect(saves.filter((a) => a.body.code === 'design_limit_reached').map((a) => a.status)).toEqual([409, 409]);
      expect((await b.send('/api/account/designs')).body.designs).toHaveLength(50);
    });

    it('an API key renders a saved design with new content and overrides; every file decodes to its content', async () => {
      const b = await person();
      const { id } = (await b.send('/api/account/designs', { name: 'Menu', config: DESIGN })).body.design;
      const { key } = await c.accounts.issueKey(b.customerId);
      // No Studio pack yet: as every gateway route.
      expect(refusal(await call(c.siteUrl, `/api/v1/qr/designs/${id}`, { key, body: { content: 'x' } }))).toMatchObject(
        {
          status: 402,
          code: 'studio_required',
        },
      );
      await c.accounts.grantPack({ customerId: b.customerId, credits: 1 });
      for (const [content, overrides, format] of [
        ['https://tea.example/menu?table=4', {}, 'png'],
        ['Tisch 7 · Grüner Tee', { fileFormat: 'svg' }, 'svg'],
        ['WIFI:S:Tea;T:WPA;P:oolong-2026;;', { fileFormat: 'jpg', primaryColor: '#000000' }, 'jpg'],
      ] as const) {
        const a = await call(c.siteUrl, `/api/v1/qr/designs/${id}`, { key, body: { content, ...overrides } });
        expect(a.status, Buffer.from(a.bytes).toString()).toBe(200);
        expect(a.headers.get('content-type')).toMatch(
          format === 'svg' ? /image\/svg/ : new RegExp(`image/${format === 'jpg' ? 'jpeg' : format}`),
        );
        expect((await decodeOne(format, a.bytes)).bytes).toEqual(new Uint8Array(Buffer.from(content, 'utf8')));
      }
      const missing = await call(c.siteUrl, `/api/v1/qr/designs/${id}`, { key, body: { fileFormat: 'png' } });
      expect({ status: missing.status, code: missing.body.code, field: missing.body.field }).toEqual({
        status: 400,
        code: 'MISSING_REQUIRED_FIELD',
        field: 'content',
      });
      const wrong = await call(c.siteUrl, `/api/v1/qr/designs/${id}`, {
        key,
        body: { content: 'x', moduleShape: 'nope' },
      });
      expect({ status: wrong.status, field: wrong.body.field }).toEqual({ status: 400, field: 'moduleShape' });
    });
  });
}

for (const driver of DRIVERS) designsSuite(driver);
