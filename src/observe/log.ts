import { randomUUID } from 'node:crypto';
import { type DestinationStream, type Logger, pino } from 'pino';

/*
 * The service's log lines. QR_LOG_FORMAT=text (the default) writes them as before: startup messages as
 * plain lines, one line per request with QR_LOG_REQUESTS=1. QR_LOG_FORMAT=json writes one JSON object per
 * line through pino (time, level, msg, and for a request its id, role, route, method, status, duration and,
 * on a relayed call, the customer id), every request logged. A line never holds a key, a body or a secret:
 * only the fields named here are written.
 */
export type LogFormat = 'text' | 'json';

let logger: Logger | undefined;
/** The stream the logger writes to, which request lines are written to directly. */
let sink: DestinationStream | undefined;

/**
 * Chooses the format for this process; json makes the pino logger, writing to stdout asynchronously, or to
 * `destination` (tests). Once JSON, a process stays JSON with its first destination: both roles of one
 * process write to one stream.
 */
export function configureLogs(format: LogFormat, destination?: DestinationStream): void {
  if (format === 'text') {
    logger = undefined;
    sink = undefined;
    return;
  }
  if (logger !== undefined) return;
  let stdout: ReturnType<typeof pino.destination> | undefined;
  if (destination === undefined) {
    // Lines are gathered up to BUFFER_BYTES and written together, at the latest after FLUSH_MS: one write per
    // line (to a pipe, a journal) cost a plain render about 7 % more CPU (bench/README.md, "Metrics and JSON
    // logs"). What is still buffered is written when the process exits.
    stdout = pino.destination({ dest: 1, sync: false, minLength: BUFFER_BYTES });
    setInterval(() => {
      try {
        stdout!.flush();
      } catch {
        // Closed at exit: nothing is left to write.
      }
    }, FLUSH_MS).unref();
  }
  sink = destination ?? stdout!;
  const json = pino({ base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime }, sink);
  logger = json;
  // Node's own warnings (a deprecation, too many listeners) are written to stderr as text unless the
  // process listens for them itself: they become JSON lines too.
  process.removeAllListeners('warning');
  process.on('warning', (w) => json.warn({ warning: w.name }, w.message));
}

const BUFFER_BYTES = 8 * 1024;
const FLUSH_MS = 500;

/** JSON logs are on: every request is logged. */
export const jsonLogs = (): boolean => logger !== undefined;

/** A message of the service's own (startup, shutdown, a store's state). */
export function logInfo(msg: string): void {
  if (logger) logger.info(msg);
  else console.log(msg);
}

/** Something an operator should know of that is not a failure of a request: an outage, a fallback taken. */
export function logWarn(msg: string): void {
  if (logger) logger.warn(msg);
  else console.warn(msg);
}

/** A failure: the message and the error's message and stack, never its request. */
export function logError(msg: string, e?: unknown): void {
  if (logger) logger.error({ err: e instanceof Error ? { message: e.message, stack: e.stack } : e }, msg);
  else if (e === undefined) console.error(msg);
  else console.error(msg, e);
}

/** One answered request, as the front end logs it. */
export interface RequestLine {
  requestId: string;
  role: string;
  method: string;
  /** The route pattern, or `unmatched`. */
  route: string;
  path: string;
  /** The status sent; 0 when the client went away first. */
  status: number;
  durationMs: number;
  /** The customer a relay acts for, on relayed calls (an id, not a credential). */
  customerId?: string;
  /** The W3C trace context the call came with. */
  traceparent?: string;
}

/**
 * A request's line is built here as a string and written to pino's destination, not through a pino call:
 * one a request, it is the log's hot path, and the fields are few and known (the same shape as pino's:
 * level, time, pid, the fields, msg). Every string that could hold a quote goes through JSON.stringify.
 */
export function logRequest(r: RequestLine): void {
  if (sink !== undefined) {
    let line = `{"level":30,"time":"${new Date().toISOString()}","pid":${process.pid},"requestId":${JSON.stringify(r.requestId)},"role":${JSON.stringify(r.role)},"method":${JSON.stringify(r.method)},"route":${JSON.stringify(r.route)},"status":${r.status},"durationMs":${Math.round(r.durationMs * 10) / 10}`;
    if (r.customerId !== undefined) line += `,"customerId":${JSON.stringify(r.customerId)}`;
    if (r.traceparent !== undefined) line += `,"traceparent":${JSON.stringify(r.traceparent)}`;
    sink.write(`${line},"msg":"request"}\n`);
    return;
  }
  // Today's text line. The customer a relay acts for is an id, not a credential: it says whose traffic this was.
  const relay = r.customerId === undefined ? '' : ` relayed for ${r.customerId}`;
  console.log(`${r.method} ${r.path} ${r.durationMs.toFixed(1)} ms${relay}`);
}

/** A request id a caller may choose: 1–128 of letters, digits and . _ : - (safe in a header and a log line). */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's X-Request-Id when it is sane, else a new one. */
export const requestIdOf = (given: string | undefined): string =>
  given !== undefined && SANE_REQUEST_ID.test(given) ? given : randomUUID();

/** W3C trace context, version 00 and later: version, trace id (not all zero), parent id (not all zero), flags. */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}(-.*)?$/;

/** Whether a traceparent header is well formed, so it may be logged and passed on. */
export function isTraceparent(value: string): boolean {
  const m = TRACEPARENT.exec(value);
  if (m === null || value.length > 256) return false;
  const [, version, trace, parent, rest] = m;
  if (version === 'ff' || /^0+$/.test(trace!) || /^0+$/.test(parent!)) return false;
  return version !== '00' || rest === undefined;
}
