import { fitQr, numberInRange, optionalText } from './fields.js';
import { CONTENT_SCHEMAS, type InputOf } from './schemas.js';

const GEO = CONTENT_SCHEMAS.geo;
export type GeoInput = InputOf<typeof GEO>;

/** 1e-7 degrees is about 1 cm: finer than any phone locates, and coarse enough to drop binary noise. */
const DECIMALS = 7;

/** Plain decimal notation (String() switches to exponents below 1e-6), no trailing zeros, no "-0". */
function formatDegrees(value: number): string {
  const text = value.toFixed(DECIMALS).replace(/\.?0+$/, '');
  return text === '-0' ? '0' : text;
}

/** `geo:<lat>,<lon>` (RFC 5870), plus `?q=<query>` as Android and most map apps read it. */
export function buildGeo(input: GeoInput): string {
  const latitude = numberInRange(input.latitude, GEO.properties.latitude, 'latitude');
  const longitude = numberInRange(input.longitude, GEO.properties.longitude, 'longitude');
  const query = optionalText(input.query, 'query');
  const uri = `geo:${formatDegrees(latitude)},${formatDegrees(longitude)}`;
  return fitQr(query === undefined ? uri : `${uri}?q=${encodeURIComponent(query)}`);
}
