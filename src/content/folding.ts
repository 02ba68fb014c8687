/** RFC 2425 §5.8.1 / RFC 5545 §3.1: a content line should be at most 75 octets, line break excluded. */
const MAX_LINE_OCTETS = 75;
const FOLD = '\r\n ';

const utf8Length = (codePoint: number): number =>
  codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;

/**
 * Folds one content line at 75 octets. It walks code points, not UTF-16 units or bytes, so a break never
 * falls inside a UTF-8 sequence or a surrogate pair; the space that starts a continuation line counts
 * toward its 75 octets, and unfolding (deleting every CRLF + one space) gives the line back unchanged.
 */
export function foldLine(line: string): string {
  let folded = '';
  let octets = 0;
  for (const char of line) {
    const size = utf8Length(char.codePointAt(0) as number);
    if (octets + size > MAX_LINE_OCTETS) {
      folded += FOLD;
      octets = 1;
    }
    folded += char;
    octets += size;
  }
  return folded;
}

/** Joins content lines the way vCard and iCalendar want them: each folded and ended by CRLF. */
export const foldContentLines = (lines: readonly string[]): string =>
  lines.map((line) => `${foldLine(line)}\r\n`).join('');
