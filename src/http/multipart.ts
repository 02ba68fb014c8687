import { ApiError } from '../errors.js';

export interface Part {
  name: string;
  filename?: string;
  data: Uint8Array;
}

const CRLF2 = Buffer.from('\r\n\r\n');

const boundaryOf = (contentType: string): string => {
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const b = m?.[1] ?? m?.[2];
  if (!b || b.length > 70)
    throw new ApiError('INVALID_MULTIPART', { message: 'The multipart Content-Type has no valid boundary.' });
  return b;
};

const dispositionParam = (headers: string, key: string): string | undefined => {
  const m =
    new RegExp(`;\\s*${key}="((?:[^"\\\\]|\\\\.)*)"`, 'i').exec(headers) ??
    new RegExp(`;\\s*${key}=([^;\\s]+)`, 'i').exec(headers);
  return m?.[1];
};

/**
 * Splits a multipart/form-data body (RFC 7578) into its parts. Each part's data is copied out of the
 * body so it owns its buffer (it is transferred to a render worker later).
 */
export function parseMultipart(body: Uint8Array, contentType: string): Part[] {
  const buf = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const delimiter = Buffer.from(`--${boundaryOf(contentType)}`);
  const parts: Part[] = [];
  let pos = buf.indexOf(delimiter);
  if (pos < 0) throw new ApiError('INVALID_MULTIPART', { message: 'The multipart body has no parts.' });
  for (;;) {
    pos += delimiter.length;
    if (buf[pos] === 0x2d && buf[pos + 1] === 0x2d) return parts; // closing delimiter "--"
    const headerEnd = buf.indexOf(CRLF2, pos);
    const next = buf.indexOf(delimiter, pos);
    if (headerEnd < 0 || next < 0 || headerEnd > next)
      throw new ApiError('INVALID_MULTIPART', { message: 'A multipart part is malformed or the body is truncated.' });
    const headers = buf.toString('latin1', pos, headerEnd);
    const name = dispositionParam(headers, 'name');
    if (!/^\r\ncontent-disposition:\s*form-data/im.test(headers) || name === undefined) {
      throw new ApiError('INVALID_MULTIPART', {
        message: 'Every multipart part needs a Content-Disposition: form-data header with a name.',
      });
    }
    // The part's data ends at the CRLF that precedes the next delimiter.
    const data = buf.subarray(headerEnd + 4, next - 2);
    const filename = dispositionParam(headers, 'filename');
    parts.push({ name, ...(filename !== undefined && { filename }), data: new Uint8Array(data) });
    pos = next;
  }
}
