/** The consumer channel's variables in src/config.ts: relay secrets, Redis, per-customer limits. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';

const LONG = 'a'.repeat(32);
const OLD = 'b'.repeat(40);

describe('relay secrets', () => {
  it('unset: no secret, so no relay is accepted', () => {
    expect(loadConfig({}).internalSecrets).toEqual([]);
  });

  it('current first, then the previous one during a rotation', () => {
    expect(loadConfig({ QR_INTERNAL_SECRET: LONG }).internalSecrets).toEqual([LONG]);
    expect(loadConfig({ QR_INTERNAL_SECRET: ` ${LONG} `, QR_INTERNAL_SECRET_PREVIOUS: OLD }).internalSecrets).toEqual([
      LONG,
      OLD,
    ]);
  });

  it('refuses a short secret, or a previous one alone, by name and never echoing the value', () => {
    const short = 'tooShort-s3cr3t';
    expect(() => loadConfig({ QR_INTERNAL_SECRET: short })).toThrow(/QR_INTERNAL_SECRET must be at least 32/);
    expect(() => loadConfig({ QR_INTERNAL_SECRET: short })).not.toThrow(/tooShort/);
    expect(() => loadConfig({ QR_INTERNAL_SECRET: LONG, QR_INTERNAL_SECRET_PREVIOUS: short })).toThrow(
      /QR_INTERNAL_SECRET_PREVIOUS must be at least 32/,
    );
    expect(() => loadConfig({ QR_INTERNAL_SECRET_PREVIOUS: OLD })).toThrow(/without QR_INTERNAL_SECRET/);
  });
});

describe('Redis and limits', () => {
  it('REDIS_URL and the key prefix; a malformed URL is named, not echoed', () => {
    expect(loadConfig({}).redisUrl).toBeUndefined();
    expect(loadConfig({}).redisKeyPrefix).toBe('qrfarm:');
    const c = loadConfig({ REDIS_URL: 'redis://:pw@10.0.0.5:6380/2', QR_REDIS_PREFIX: 'eu1:' });
    expect([c.redisUrl, c.redisKeyPrefix]).toEqual(['redis://:pw@10.0.0.5:6380/2', 'eu1:']);
    expect(() => loadConfig({ REDIS_URL: 'http://user:hunter2@x' })).toThrow(/REDIS_URL must be/);
    expect(() => loadConfig({ REDIS_URL: 'http://user:hunter2@x' })).not.toThrow(/hunter2/);
  });

  it("per-customer limits default to the contract's and can be raised", () => {
    expect(loadConfig({}).rateLimits).toEqual({ general: 120, generation: 60, ai: 30 });
    expect(
      loadConfig({ QR_LIMIT_GENERAL: '5000', QR_LIMIT_GENERATION: '2000', QR_LIMIT_AI: '1000' }).rateLimits,
    ).toEqual({ general: 5000, generation: 2000, ai: 1000 });
    expect(() => loadConfig({ QR_LIMIT_AI: '0' })).toThrow(/QR_LIMIT_AI/);
  });
});
