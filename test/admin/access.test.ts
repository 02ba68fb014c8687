/**
 * Who may use an admin API (src/admin/access.ts): a fresh token per run in the data directory (mode 0600),
 * compared as a Bearer token, and loopback clients only, whatever the token; nobody at all with a memory://
 * data directory, where no token can be kept.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type AdminAccess, ENGINE_ADMIN, openAdminAccess, readAdminToken, SITE_ADMIN } from '../../src/admin/access.js';
import { isApiError } from '../../src/errors.js';

const dirs: string[] = [];
const dataDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'qrfarm-admin-access-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** 'admitted', or the status, code and headers it was refused with. */
function verdict(access: AdminAccess, remoteAddress: string, authorization: string | undefined) {
  try {
    access.check({ remoteAddress, authorization });
    return 'admitted';
  } catch (e) {
    if (!isApiError(e)) throw e;
    return { status: e.status, code: e.code, headers: e.headers };
  }
}
const BAD_TOKEN = { status: 401, code: 'invalid_admin_token', headers: { 'WWW-Authenticate': 'Bearer' } };
const NOT_LOOPBACK = { status: 403, code: 'admin_loopback_only', headers: {} };

describe('openAdminAccess', () => {
  it('writes a fresh token, readable by the owner alone, and admits it as a Bearer token from loopback', () => {
    const dir = dataDir();
    const access = openAdminAccess(dir, 0);
    const token = readAdminToken(dir);
    expect(token).toMatch(/^\S{32,}$/);
    expect(readFileSync(join(dir, SITE_ADMIN.tokenFile), 'utf8').trim()).toBe(token);
    expect(statSync(join(dir, SITE_ADMIN.tokenFile)).mode & 0o777).toBe(0o600);
    expect(verdict(access, '127.0.0.1', `Bearer ${token}`)).toBe('admitted');
    // The scheme's name in any case, as HTTP has it.
    expect(verdict(access, '127.0.0.1', `bearer ${token}`)).toBe('admitted');
    expect(verdict(access, '127.0.0.1', `BEARER ${token}`)).toBe('admitted');
  });

  it('refuses anything but exactly the token: 401 invalid_admin_token, asking for a Bearer token', () => {
    const dir = dataDir();
    const access = openAdminAccess(dir, 0);
    const token = readAdminToken(dir);
    for (const authorization of [
      undefined,
      '',
      token,
      `Basic ${token}`,
      'Bearer',
      'Bearer ',
      `Bearer ${token.slice(0, -1)}`,
      `Bearer ${token}x`,
      `Bearer ${token} ${token}`,
      `Bearer  ${token}`,
    ])
      expect(verdict(access, '127.0.0.1', authorization), String(authorization)).toEqual(BAD_TOKEN);
  });

  it('answers loopback clients only, in every spelling of loopback, and says so before looking at the token', () => {
    const dir = dataDir();
    const access = openAdminAccess(dir, 0);
    const good = `Bearer ${readAdminToken(dir)}`;
    for (const address of [
      '127.0.0.1',
      '127.9.8.7',
      '::1',
      '0000:0000:0000:0000:0000:0000:0000:0001',
      '::ffff:127.0.0.1',
    ])
      expect(verdict(access, address, good), address).toBe('admitted');
    for (const address of ['10.0.0.1', '192.168.1.2', '::2', '::ffff:10.0.0.1', '2001:db8::1', '', 'localhost'])
      for (const authorization of [good, 'Bearer wrong', undefined])
        expect(verdict(access, address, authorization), `${address} ${authorization}`).toEqual(NOT_LOOPBACK);
  });

  it('each opening is a new run: a new token, the previous one refused', () => {
    const dir = dataDir();
    openAdminAccess(dir, 0);
    const before = readAdminToken(dir);
    const access = openAdminAccess(dir, 0);
    const after = readAdminToken(dir);
    expect(after).not.toBe(before);
    expect(verdict(access, '127.0.0.1', `Bearer ${before}`)).toEqual(BAD_TOKEN);
    expect(verdict(access, '127.0.0.1', `Bearer ${after}`)).toBe('admitted');
  });

  it('the engine’s admin API has a token file of its own, and neither token opens the other', () => {
    const dir = dataDir();
    const site = openAdminAccess(dir, 0);
    const engine = openAdminAccess(dir, 0, ENGINE_ADMIN);
    expect(ENGINE_ADMIN.tokenFile).not.toBe(SITE_ADMIN.tokenFile);
    const siteToken = readAdminToken(dir);
    const engineToken = readAdminToken(dir, ENGINE_ADMIN);
    expect(engineToken).not.toBe(siteToken);
    expect(verdict(engine, '127.0.0.1', `Bearer ${engineToken}`)).toBe('admitted');
    expect(verdict(engine, '127.0.0.1', `Bearer ${siteToken}`)).toEqual(BAD_TOKEN);
    expect(verdict(site, '127.0.0.1', `Bearer ${engineToken}`)).toEqual(BAD_TOKEN);
  });

  it('with a memory:// data directory the admin API is closed: every token refused, nothing written', () => {
    const access = openAdminAccess('memory://', 0);
    for (const authorization of [undefined, 'Bearer anything'])
      expect(verdict(access, '127.0.0.1', authorization)).toEqual(BAD_TOKEN);
  });
});
