import { describe, expect, it } from 'vitest';
import { buildGeo } from '../../src/content/geo.js';
import { expectApiError, randomText, seededRandom } from './support.js';

/** An RFC 5870 reader for the subset we emit: plain decimals, and the ?q= label map apps read. */
function readGeo(payload: string): { latitude: number; longitude: number; query?: string } {
  const m = /^geo:(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)(?:\?q=([^?#]*))?$/.exec(payload);
  if (m === null) throw new Error(`not a plain geo URI: ${payload}`);
  const read: { latitude: number; longitude: number; query?: string } = {
    latitude: Number(m[1]),
    longitude: Number(m[2]),
  };
  if (m[3] !== undefined) read.query = decodeURIComponent(m[3]);
  return read;
}

describe('buildGeo', () => {
  it('writes geo:<lat>,<lon> with the coordinates as given', () => {
    expect(readGeo(buildGeo({ latitude: 48.8584, longitude: 2.2945 }))).toEqual({
      latitude: 48.8584,
      longitude: 2.2945,
    });
    expect(buildGeo({ latitude: 48.8584, longitude: 2.2945 })).toBe('geo:48.8584,2.2945');
  });

  it('drops binary noise and trailing zeros beyond 7 decimals', () => {
    expect(buildGeo({ latitude: 48.858399999, longitude: 2.2944999999999998 })).toBe('geo:48.8584,2.2945');
    expect(buildGeo({ latitude: 0.1 + 0.2, longitude: 10 })).toBe('geo:0.3,10');
    expect(buildGeo({ latitude: -33.8567844, longitude: 151.213108 })).toBe('geo:-33.8567844,151.213108');
  });

  it('never uses exponent notation, and writes values that round to zero as 0', () => {
    expect(buildGeo({ latitude: 1e-7, longitude: -1e-7 })).toBe('geo:0.0000001,-0.0000001');
    expect(buildGeo({ latitude: 1e-8, longitude: -1e-8 })).toBe('geo:0,0');
    expect(buildGeo({ latitude: -0, longitude: 0 })).toBe('geo:0,0');
  });

  it('stays within 5e-8 degrees of any coordinate', () => {
    const random = seededRandom(5870);
    for (let i = 0; i < 2000; i++) {
      const latitude = (random() - 0.5) * 180 * 10 ** -Math.floor(random() * 9);
      const longitude = (random() - 0.5) * 360;
      const read = readGeo(buildGeo({ latitude, longitude }));
      expect(Math.abs(read.latitude - latitude)).toBeLessThanOrEqual(5e-8 + 1e-12);
      expect(Math.abs(read.longitude - longitude)).toBeLessThanOrEqual(5e-8 + 1e-12);
    }
  });

  it('appends ?q= with the query percent-encoded', () => {
    for (const query of ['Eiffel Tower', 'Café "Le Procope"; Paris, 6e', '東京タワー', '🗼 & ?#=+%/', 'a\\b:c']) {
      const payload = buildGeo({ latitude: 1, longitude: 2, query });
      expect(payload).toMatch(/^geo:1,2\?q=[A-Za-z0-9%!'()*._~-]*$/);
      expect(readGeo(payload).query).toBe(query);
    }
    const random = seededRandom(3986);
    for (let i = 0; i < 200; i++) {
      const query = randomText(random, 1, 200);
      expect(readGeo(buildGeo({ latitude: 0, longitude: 0, query })).query).toBe(query);
    }
    expect(buildGeo({ latitude: 1, longitude: 2, query: '' })).toBe('geo:1,2');
  });

  it('accepts the bounds and refuses anything beyond them', () => {
    expect(readGeo(buildGeo({ latitude: -90, longitude: 180 }))).toEqual({ latitude: -90, longitude: 180 });
    expect(readGeo(buildGeo({ latitude: 90, longitude: -180 }))).toEqual({ latitude: 90, longitude: -180 });
    expectApiError(() => buildGeo({ latitude: 90.0000001, longitude: 0 }), 'VALUE_OUT_OF_RANGE', 'latitude');
    expectApiError(() => buildGeo({ latitude: -91, longitude: 0 }), 'VALUE_OUT_OF_RANGE', 'latitude');
    expectApiError(() => buildGeo({ latitude: 0, longitude: 180.5 }), 'VALUE_OUT_OF_RANGE', 'longitude');
    expectApiError(() => buildGeo({ latitude: 0, longitude: Number.NaN }), 'VALUE_OUT_OF_RANGE', 'longitude');
  });

  it('refuses a query with a line break', () => {
    expectApiError(() => buildGeo({ latitude: 0, longitude: 0, query: 'a\nb' }), 'INVALID_FIELD_VALUE', 'query');
  });
});
