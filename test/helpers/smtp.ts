/**
 * A loopback mail server speaking SMTP (RFC 5321) as far as a client delivering one message needs:
 * greeting, EHLO/HELO, MAIL FROM, RCPT TO, DATA (dot-unstuffed, ended by a lone dot), RSET, NOOP, QUIT. It
 * offers no STARTTLS and no AUTH, and keeps every message it accepts. `refuse` makes it answer DATA with a
 * temporary failure, as a server that is full does.
 */
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface Delivered {
  from: string;
  to: string[];
  /** The message as sent: headers, a blank line, the body; CRLF line ends, dot-unstuffed. */
  data: string;
}

export interface FakeSmtp {
  /** smtp://127.0.0.1:<port>, for SMTP_URL. */
  url: string;
  messages: Delivered[];
  /** Commands the server did not expect where they came; a test expects none. */
  problems: string[];
  /** Answer the next `n` DATA commands with 451, a temporary failure. */
  refuse(n: number): void;
  close(): Promise<void>;
}

export async function startFakeSmtp(): Promise<FakeSmtp> {
  const sockets = new Set<Socket>();
  let refusals = 0;
  const fake: FakeSmtp = {
    url: '',
    messages: [],
    problems: [],
    refuse: (n) => {
      refusals = n;
    },
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.setEncoding('utf8');
    const say = (line: string) => socket.write(`${line}\r\n`);
    let buffer = '';
    let greeted = false;
    let from: string | undefined;
    let to: string[] = [];
    let data: string[] | undefined;
    say('220 fake-smtp.localhost ESMTP ready');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (data !== undefined) {
          if (line === '.') {
            fake.messages.push({ from: from!, to, data: `${data.join('\r\n')}\r\n` });
            say(`250 2.0.0 queued as ${fake.messages.length}`);
            data = undefined;
            from = undefined;
            to = [];
          } else data.push(line.startsWith('.') ? line.slice(1) : line);
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') {
          greeted = true;
          socket.write('250-fake-smtp.localhost\r\n250-8BITMIME\r\n250-SMTPUTF8\r\n250 SIZE 10485760\r\n');
        } else if (verb === 'HELO') {
          greeted = true;
          say('250 fake-smtp.localhost');
        } else if (verb === 'MAIL' && greeted) {
          from = /^MAIL FROM:\s*<([^>]*)>/i.exec(line)?.[1];
          say(from === undefined ? '501 5.5.4 syntax: MAIL FROM:<address>' : '250 2.1.0 ok');
        } else if (verb === 'RCPT' && from !== undefined) {
          const address = /^RCPT TO:\s*<([^>]+)>/i.exec(line)?.[1];
          if (address !== undefined) to.push(address);
          say(address === undefined ? '501 5.5.4 syntax: RCPT TO:<address>' : '250 2.1.5 ok');
        } else if (verb === 'DATA' && to.length > 0) {
          if (refusals > 0) {
            refusals--;
            say('451 4.3.0 try again later');
          } else {
            data = [];
            say('354 end data with <CR><LF>.<CR><LF>');
          }
        } else if (verb === 'RSET') {
          from = undefined;
          to = [];
          say('250 2.0.0 ok');
        } else if (verb === 'NOOP') say('250 2.0.0 ok');
        else if (verb === 'QUIT') {
          say('221 2.0.0 bye');
          socket.end();
        } else {
          fake.problems.push(line);
          say('503 5.5.1 bad sequence of commands');
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `smtp://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

/** A message's headers (names lower-cased; folded lines joined) and its body. */
export function parseMessage(data: string): { headers: Record<string, string>; body: string } {
  const split = data.indexOf('\r\n\r\n');
  const headers: Record<string, string> = {};
  let last = '';
  for (const line of data.slice(0, split).split('\r\n')) {
    if (/^[ \t]/.test(line)) headers[last] += ` ${line.trim()}`;
    else {
      const colon = line.indexOf(':');
      last = line.slice(0, colon).toLowerCase();
      headers[last] = line.slice(colon + 1).trim();
    }
  }
  return { headers, body: data.slice(split + 4) };
}

/** Quoted-printable (RFC 2045 §6.7) back to text: soft line breaks dropped, `=XX` bytes decoded as UTF-8. */
export function decodeQuotedPrintable(body: string): string {
  const unfolded = body.replace(/=\r\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < unfolded.length; i++) {
    const c = unfolded[i]!;
    if (c === '=' && /^[0-9A-F]{2}$/.test(unfolded.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(unfolded.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(c, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`) of a header, decoded. */
export function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_, kind: string, text: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    );
}
