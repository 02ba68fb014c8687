/** Puts a backslash before every character `specials` matches (a global RegExp). */
export const backslashEscape = (value: string, specials: RegExp): string => value.replace(specials, '\\$&');

/**
 * TEXT escaping shared by vCard 3.0 (RFC 2426) and iCalendar (RFC 5545 §3.3.11): the two formats escape
 * the same characters, and a line break of any platform becomes the two characters `\n`, since a raw one
 * would end the content line.
 */
export const escapeText = (value: string): string => backslashEscape(value, /[\\;,]/g).replace(/\r\n|\r|\n/g, '\\n');
