/**
 * Whether an If-None-Match header names `etag`: a list (`"a", W/"b"`) or `*`. RFC 9110 §13.1.2 compares
 * weakly here, so a `W/` prefix on either side still matches.
 */
export function ifNoneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag.replace(/^W\//, '') === bare;
  });
}
