/**
 * Answers read whole for the end-to-end suites: status, headers, bytes and the JSON body when there is one.
 * Every answer read here is also kept in `transcript` (status line, headers and body as latin1), for the
 * checks that no key or secret ever comes back.
 */

export interface Answer {
  status: number;
  headers: Headers;
  bytes: Uint8Array;
  /** The JSON body, when the answer is JSON. */
  // biome-ignore lint/suspicious/noExplicitAny: the tests read whatever JSON the routes answer.
  body: any;
}

/** Status line, headers and body of every answer read through `answerOf`, for the secret checks. */
export const transcript: string[] = [];

export async function answerOf(res: Response): Promise<Answer> {
  const bytes = new Uint8Array(await res.arrayBuffer());
  transcript.push(
    `${res.status}\n${[...res.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}\n${Buffer.from(bytes).toString('latin1')}`,
  );
  const json = (res.headers.get('content-type') ?? '').startsWith('application/json');
  return {
    status: res.status,
    headers: res.headers,
    bytes,
    body: json ? JSON.parse(Buffer.from(bytes).toString('utf8')) : undefined,
  };
}
