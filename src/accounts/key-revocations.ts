import { Redis } from 'ioredis';
import { OutageLog } from '../outage.js';

/** Redis channel on which a revoking instance publishes the revoked key's digest (base64url). */
export const KEY_REVOKED_CHANNEL = 'qrfarm:key-revoked';

export type FeedState = 'listening' | 'down';

export interface RevocationFeed {
  state(): FeedState;
  /** Tells every instance (this one included) to forget the key; queued while Redis is away. */
  publish(digest: string): void;
  close(): Promise<void>;
}

export interface RevocationHandlers {
  /** A digest some instance revoked. */
  revoked(digest: string): void;
  /**
   * The subscription (re)started: revocations published while it was down were missed, so whatever was
   * cached meanwhile must go.
   */
  resubscribed(): void;
  log(message: string): void;
}

/**
 * Revocations broadcast over Redis pub/sub: a publishing connection and a subscribed one (a subscribed
 * Redis connection can do nothing else). The subscription is renewed by hand on every reconnection and
 * counts as listening only once Redis confirms it, so no message can fall between a reconnection and the
 * moment the cache trusts the feed again.
 */
export function connectRevocationFeed(redisUrl: string, handlers: RevocationHandlers): RevocationFeed {
  let listening = false;
  const outage = new OutageLog(handlers.log, 'key revocations: Redis subscription back');
  const subscriber = new Redis(redisUrl, { autoResubscribe: false, lazyConnect: true });
  const publisher = new Redis(redisUrl, { lazyConnect: true });

  const down = (why: string) => {
    listening = false;
    outage.failed(() => `key revocations: Redis ${why}; cached keys now live 0.9 s until it is back`);
  };
  subscriber.on('message', (channel: string, message: string) => {
    if (channel === KEY_REVOKED_CHANNEL) handlers.revoked(message);
  });
  subscriber.on('ready', () => {
    subscriber.subscribe(KEY_REVOKED_CHANNEL).then(
      () => {
        handlers.resubscribed();
        listening = true;
        outage.succeeded();
      },
      () => down('refused the subscription'),
    );
  });
  subscriber.on('close', () => down('connection closed'));
  subscriber.on('error', () => down('unreachable'));
  publisher.on('error', () => {});
  subscriber.connect().catch(() => down('unreachable'));
  publisher.connect().catch(() => {});

  return {
    state: () => (listening ? 'listening' : 'down'),
    publish(digest) {
      publisher.publish(KEY_REVOKED_CHANNEL, digest).catch(() => {
        handlers.log(
          'key revocations: a revocation could not be published; other instances drop the key when their cache entry ages out',
        );
      });
    },
    async close() {
      listening = false;
      subscriber.disconnect();
      // quit() sends what is still queued (a revocation published just before) before closing.
      await publisher.quit().catch(() => publisher.disconnect());
    },
  };
}
