import { describe, expect, it } from 'vitest';
import { buildWifi } from '../../src/content/wifi.js';
import { expectApiError, randomText, readWifi, seededRandom } from './support.js';

describe('buildWifi', () => {
  it('produces the documented shape with defaults WPA and not hidden', () => {
    expect(buildWifi({ ssid: 'Home', password: 'correct horse' })).toBe('WIFI:T:WPA;S:Home;P:correct horse;H:false;;');
  });

  it('omits P: for an open network, even when a password is sent', () => {
    const payload = buildWifi({ ssid: 'Cafe', encryption: 'nopass', password: 'leftover', hidden: true });
    expect(payload).not.toContain('P:');
    expect(readWifi(payload)).toEqual({ type: 'nopass', ssid: 'Cafe', password: undefined, hidden: true });
  });

  it.each([
    ['every special', 'a;b,c:d\\e"f', 'p;a,s:s\\w"rd'],
    ['field prefixes inside values', 'XP:T:H:S:', 'T:WEP;S:evil;H:true'],
    ['trailing backslash', 'net\\', 'passw0rd\\\\'],
    ['accents', 'Café Zürich', 'pässwörd-ñ'],
    ['CJK', '家庭网络', '密码密码密码'],
    ['emoji', '📶 WiFi 🏠', '🔑🔑secret'],
    ['leading and trailing spaces', ' spaced ', ' 12345678 '],
  ])('reads back through ZXing rules: %s', (_, ssid, password) => {
    for (const hidden of [false, true]) {
      const parsed = readWifi(buildWifi({ ssid, password, encryption: 'WPA', hidden }));
      expect(parsed).toEqual({ type: 'WPA', ssid, password, hidden });
    }
  });

  it('reads back random SSIDs and passwords full of specials and multi-byte characters', () => {
    const random = seededRandom(20250101);
    for (let i = 0; i < 500; i++) {
      const ssid = randomText(random, 1, 32);
      const password = randomText(random, 8, 63);
      expect(readWifi(buildWifi({ ssid, password }))).toEqual({ type: 'WPA', ssid, password, hidden: false });
    }
  });

  it('requires the SSID, and a password unless the network is open', () => {
    expectApiError(() => buildWifi({ ssid: '', password: 'password1' }), 'MISSING_REQUIRED_FIELD', 'ssid');
    expectApiError(() => buildWifi({ ssid: '   ', password: 'password1' }), 'MISSING_REQUIRED_FIELD', 'ssid');
    expectApiError(() => buildWifi({ ssid: 'Home' }), 'MISSING_REQUIRED_FIELD', 'password');
    expectApiError(
      () => buildWifi({ ssid: 'Home', encryption: 'WEP', password: '' }),
      'MISSING_REQUIRED_FIELD',
      'password',
    );
    expect(readWifi(buildWifi({ ssid: 'Open', encryption: 'nopass' }))?.password).toBeUndefined();
  });

  it('limits the SSID to 32 bytes of UTF-8, not 32 characters', () => {
    expect(() => buildWifi({ ssid: 'é'.repeat(16), encryption: 'nopass' })).not.toThrow();
    expect(() => buildWifi({ ssid: '😀'.repeat(8), encryption: 'nopass' })).not.toThrow();
    expectApiError(() => buildWifi({ ssid: 'é'.repeat(17), encryption: 'nopass' }), 'INVALID_FIELD_VALUE', 'ssid');
    expectApiError(
      () => buildWifi({ ssid: `${'x'.repeat(31)}é`, encryption: 'nopass' }),
      'INVALID_FIELD_VALUE',
      'ssid',
    );
  });

  it('accepts WPA passphrases of 8–63 bytes or 64 hex digits', () => {
    for (const password of ['12345678', 'x'.repeat(63), 'ab'.repeat(32), `${'é'.repeat(31)}x`]) {
      expect(readWifi(buildWifi({ ssid: 'N', password }))?.password).toBe(password);
    }
    for (const password of ['1234567', 'x'.repeat(64), 'é'.repeat(32), 'g'.repeat(64)]) {
      expectApiError(() => buildWifi({ ssid: 'N', password }), 'INVALID_FIELD_VALUE', 'password');
    }
  });

  it('accepts WEP keys of 5 or 13 ASCII characters or 10 or 26 hex digits', () => {
    for (const password of ['abcde', 'abcdefghijklm', '0123456789', 'A'.repeat(26)]) {
      expect(readWifi(buildWifi({ ssid: 'Old', encryption: 'WEP', password }))).toMatchObject({
        type: 'WEP',
        password,
      });
    }
    for (const password of ['abcd', 'abcdef', 'é'.repeat(5), '012345678', 'G'.repeat(26), 'x'.repeat(12)]) {
      expectApiError(() => buildWifi({ ssid: 'Old', encryption: 'WEP', password }), 'INVALID_FIELD_VALUE', 'password');
    }
  });

  it('refuses control characters and line breaks', () => {
    expectApiError(() => buildWifi({ ssid: 'a\nb', encryption: 'nopass' }), 'INVALID_FIELD_VALUE', 'ssid');
    expectApiError(() => buildWifi({ ssid: 'ok', password: 'pass\u0000word' }), 'INVALID_FIELD_VALUE', 'password');
    expectApiError(() => buildWifi({ ssid: 'lone \ud800', encryption: 'nopass' }), 'INVALID_FIELD_VALUE', 'ssid');
  });
});
