import { EventEmitter } from 'node:events';

/**
 * The client of one request going away, as an EventEmitter with `aborted`: the form of signal undici also
 * takes. Every request listens for it (the body reader, the relay to the engine), and a listener here
 * costs far less to add and remove than one on an AbortSignal (bench/README.md, "Per-item costs of a
 * relay").
 */
export class ClientGone extends EventEmitter<{ abort: [] }> {
  aborted = false;

  fire(): void {
    this.aborted = true;
    this.emit('abort');
  }
}
