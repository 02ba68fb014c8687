import { describe, expect, it } from 'vitest';
import { ifNoneMatch } from '../../src/http/etag.js';

describe('ifNoneMatch', () => {
  const etag = '"abc"';
  it('matches the tag itself, in a list, as a weak tag, and *', () => {
    expect(ifNoneMatch('"abc"', etag)).toBe(true);
    expect(ifNoneMatch('"x", "abc"', etag)).toBe(true);
    expect(ifNoneMatch('W/"abc"', etag)).toBe(true);
    expect(ifNoneMatch(' * ', etag)).toBe(true);
    expect(ifNoneMatch('"abc"', 'W/"abc"')).toBe(true);
  });
  it('does not match another tag, a prefix, or no header', () => {
    expect(ifNoneMatch(undefined, etag)).toBe(false);
    expect(ifNoneMatch('"abcd"', etag)).toBe(false);
    expect(ifNoneMatch('"x", W/"y"', etag)).toBe(false);
    expect(ifNoneMatch('abc', etag)).toBe(false);
  });
});
