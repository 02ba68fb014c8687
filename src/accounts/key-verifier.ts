import { OutageLog } from '../outage.js';
import type { Db } from '../store/index.js';
import { KeyCache } from './key-cache.js';
import { isWellFormedKey } from './key-format.js';
import { connectRevocationFeed, type RevocationFeed } from './key-revocations.js';
import { findKeyOwner, touchKey } from './keys.js';
import { keyDigest } from './pepper.js';
import type { Clock, KeyOwner } from './types.js';

export interface KeyVerifierOptions {
  pepper: Uint8Array;
  clock: Clock;
  /** With it, revocations arrive by pub/sub and the cache may keep answers longer. */
  redisUrl?: string;
  /** Cache TTL when revocations do not arrive by pub/sub (no Redis, or its subscription is down). */
  cacheTtlMs: number;
  /** Cache TTL while the pub/sub subscription is up. */
  cacheTtlWithFeedMs: number;
  cacheEntries: number;
  log: (message: string) => void;
}

/** last_used_at is written at most once a minute per key. */
const TOUCH_EVERY_MS = 60_000;

/**
 * Checks keys at the edge: offline format check, then the digest in a short-lived cache, then the
 * database. A revocation on this instance forgets the key at once and is published for the others.
 */
export class KeyVerifier {
  private readonly cache: KeyCache;
  private readonly feed: RevocationFeed | undefined;
  private readonly lastTouch = new Map<string, number>();
  private readonly pendingTouches = new Set<Promise<void>>();
  private readonly touchOutage: OutageLog;

  constructor(
    private readonly db: Db,
    private readonly options: KeyVerifierOptions,
  ) {
    this.touchOutage = new OutageLog(options.log);
    const nowMs = () => options.clock().getTime();
    this.cache = new KeyCache(nowMs, options.cacheEntries);
    this.feed =
      options.redisUrl === undefined
        ? undefined
        : connectRevocationFeed(options.redisUrl, {
            revoked: (digest) => this.cache.invalidate(digest),
            resubscribed: () => this.cache.clear(),
            log: options.log,
          });
  }

  feedState(): 'off' | 'listening' | 'down' {
    return this.feed === undefined ? 'off' : this.feed.state();
  }

  async verify(plaintext: string): Promise<KeyOwner | null> {
    if (!isWellFormedKey(plaintext)) return null;
    const digestBytes = keyDigest(this.options.pepper, plaintext);
    const digest = digestBytes.toString('base64url');
    const ttl = this.feed?.state() === 'listening' ? this.options.cacheTtlWithFeedMs : this.options.cacheTtlMs;
    let owner = this.cache.get(digest, ttl);
    if (owner === undefined) {
      const mark = this.cache.mark();
      owner = await findKeyOwner(this.db, digestBytes);
      this.cache.set(digest, owner, mark);
    }
    if (owner !== null) this.touch(owner.keyId);
    return owner;
  }

  /** Forgets the key here and tells the other instances. */
  revoked(digest: Uint8Array): void {
    const text = Buffer.from(digest).toString('base64url');
    this.cache.invalidate(text);
    this.feed?.publish(text);
  }

  /** Off the request's path: the answer does not wait for it, and a failure only costs the timestamp. */
  private touch(keyId: string): void {
    const now = this.options.clock();
    const last = this.lastTouch.get(keyId);
    if (last !== undefined && now.getTime() - last < TOUCH_EVERY_MS) return;
    if (this.lastTouch.size >= this.options.cacheEntries) this.lastTouch.clear();
    this.lastTouch.set(keyId, now.getTime());
    const pending = this.touchOutage.run(
      () => touchKey(this.db, keyId, now),
      () => 'api keys: last_used_at could not be written',
    );
    this.pendingTouches.add(pending);
    pending.finally(() => this.pendingTouches.delete(pending));
  }

  async close(): Promise<void> {
    await Promise.all(this.pendingTouches);
    await this.feed?.close();
  }
}
