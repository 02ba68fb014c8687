/**
 * How the site's routes answer (src/site/answers.ts): records mapped to the wire types the pages read,
 * with nothing else of the record, and the query's counts within their bounds.
 */
import { describe, expect, it } from 'vitest';
import type { ApiKeyInfo, LedgerEntry, Pack, User } from '../../src/accounts/types.js';
import { isApiError } from '../../src/errors.js';
import type { RequestContext } from '../../src/http/router.js';
import { countParam, keyJson, ledgerJson, packJson, route, userJson } from '../../src/site/answers.js';

const at = new Date('2026-11-28T10:00:00Z');
const ctxWith = (query: string) => ({ query: new URLSearchParams(query) }) as unknown as RequestContext;

describe('the wire mappers', () => {
  it('a user: address, verification, customer and creation only (never the password hash or id)', () => {
    const user = { id: 'usr_1', customerId: 'cus_1', email: 'a@example.com', emailVerified: true, createdAt: at };
    const withSecret = { ...user, passwordHash: '$argon2id$…' } as User;
    expect(userJson(withSecret)).toEqual({
      email: 'a@example.com',
      emailVerified: true,
      customerId: 'cus_1',
      createdAt: at,
    });
  });

  it('a key: its start and dates, never a key or hash it might carry', () => {
    const info: ApiKeyInfo = {
      id: 'key_1',
      customerId: 'cus_1',
      start: 'qrf_live_ab',
      name: null,
      createdAt: at,
      lastUsedAt: null,
      revokedAt: at,
    };
    const issued = { ...info, key: 'qrf_live_secret', hash: 'h' } as ApiKeyInfo;
    expect(keyJson(issued)).toEqual({
      id: 'key_1',
      start: 'qrf_live_ab',
      name: null,
      createdAt: at,
      lastUsedAt: null,
      revokedAt: at,
    });
  });

  it('a pack and a ledger entry, without their customer', () => {
    const pack: Pack = {
      id: 'pck_1',
      customerId: 'cus_1',
      kind: 'studio',
      credits: 100,
      remaining: 98,
      purchasedAt: at,
      refundedAt: null,
      expiresAt: at,
    };
    expect(packJson(pack)).toEqual({
      id: 'pck_1',
      credits: 100,
      remaining: 98,
      purchasedAt: at,
      expiresAt: at,
      refundedAt: null,
    });
    const entry: LedgerEntry = {
      id: 'led_1',
      kind: 'reserve',
      packId: 'pck_1',
      reservationId: 'res_1',
      remainingChange: -1,
      heldChange: 1,
      createdAt: at,
    };
    expect(ledgerJson(entry)).toEqual({
      id: 'led_1',
      kind: 'reserve',
      packId: 'pck_1',
      remainingChange: -1,
      heldChange: 1,
      createdAt: at,
    });
  });
});

describe('countParam', () => {
  it('the default when absent; a whole number from 1 to the maximum as given', () => {
    expect(countParam(ctxWith(''), 'limit', 50, 200)).toBe(50);
    expect(countParam(ctxWith('limit=1'), 'limit', 50, 200)).toBe(1);
    expect(countParam(ctxWith('limit=200'), 'limit', 50, 200)).toBe(200);
  });

  it('anything else is 400 invalid_body on the parameter, saying its bounds', () => {
    for (const raw of ['0', '201', '-3', '2.5', 'ten', '', '1e2']) {
      let refusal: unknown;
      try {
        countParam(ctxWith(`days=${encodeURIComponent(raw)}`), 'days', 30, 90);
      } catch (e) {
        refusal = isApiError(e) ? { status: e.status, code: e.code, field: e.field, message: e.message } : e;
      }
      expect(refusal, raw).toEqual({
        status: 400,
        code: 'invalid_body',
        field: 'days',
        message: 'days must be a whole number from 1 to 90.',
      });
    }
  });
});

describe('route', () => {
  it('carries the method, path and documentation, the body schema only when there is one', () => {
    expect(route('GET', '/api/x', 'Summary.', '{ success }')).toEqual({
      method: 'GET',
      path: '/api/x',
      doc: { summary: 'Summary.', response: '{ success }' },
    });
    expect(route('POST', '/api/y', 'S.', 'R.', 'keyName').doc).toEqual({
      summary: 'S.',
      response: 'R.',
      body: 'keyName',
    });
  });
});
