import { ApiError } from '../errors.js';
import { fitQr, optionalText, requiredText } from './fields.js';
import { foldContentLines } from './folding.js';
import type { InputOf, CONTENT_SCHEMAS } from './schemas.js';
import { escapeText } from './text-escaping.js';

export type EventInput = InputOf<(typeof CONTENT_SCHEMAS)['event']>;

/**
 * RFC 3339 date-time. The offset is mandatory: without it the instant depends on a time zone the request
 * does not name, and iCalendar UTC times must be exact.
 */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|([+-])(\d{2}):(\d{2}))$/i;

/** The instant as an iCalendar UTC date-time, `YYYYMMDDTHHMMSSZ` (RFC 5545 §3.3.5, form #2). */
function toUtc(value: string, field: string): { instant: number; text: string } {
  const invalid = (): ApiError =>
    new ApiError('INVALID_FIELD_VALUE', {
      message: `${field} must be an ISO 8601 date-time with an offset, e.g. 2025-07-14T20:30:00+02:00 or 2025-07-14T18:30:00Z.`,
      field,
    });
  const m = DATE_TIME.exec(value);
  if (m === null) throw invalid();
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number);
  const second = Number(m[6] ?? 0);
  const [offsetHours, offsetMinutes] = m[8] === undefined ? [0, 0] : [Number(m[9]), Number(m[10])];

  // setUTCFullYear, unlike Date.UTC, does not read years 0–99 as 1900–1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second);
  const rolledOver = date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day;
  if (rolledOver || hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) throw invalid();
  const offsetSign = m[8] === '-' ? -1 : 1;
  const instant = date.getTime() - offsetSign * (offsetHours * 60 + offsetMinutes) * 60_000;
  const iso = new Date(instant).toISOString(); // YYYY-MM-DDTHH:MM:SS.sssZ for years 0000–9999
  if (!/^\d{4}-/.test(iso)) throw invalid();
  return { instant, text: `${iso.slice(0, 19).replace(/[-:]/g, '')}Z` };
}

/** A bare VEVENT (RFC 5545) as QR readers take it: escaped TEXT, UTC times, CRLF, lines folded at 75 octets. */
export function buildEvent(input: EventInput): string {
  const summary = requiredText(input.summary, 'summary');
  const start = toUtc(requiredText(input.start, 'start'), 'start');
  const endText = optionalText(input.end, 'end');
  const end = endText === undefined ? undefined : toUtc(endText, 'end');
  const location = optionalText(input.location, 'location');
  const description = optionalText(input.description, 'description', { multiline: true });
  if (end !== undefined && end.instant <= start.instant) {
    throw new ApiError('INVALID_FIELD_VALUE', { message: 'end must be later than start.', field: 'end' });
  }

  const lines = ['BEGIN:VEVENT', `SUMMARY:${escapeText(summary)}`, `DTSTART:${start.text}`];
  if (end !== undefined) lines.push(`DTEND:${end.text}`);
  if (location !== undefined) lines.push(`LOCATION:${escapeText(location)}`);
  if (description !== undefined) lines.push(`DESCRIPTION:${escapeText(description)}`);
  lines.push('END:VEVENT');
  return fitQr(foldContentLines(lines));
}
