/** The relay between the consumer site and the engine: signing, verifying, and the memory of what was seen. */
export { InProcessReplayMemory, RedisReplayMemory, type ReplayMemory } from './replay.js';
export {
  bodySha256,
  isRelayed,
  RELAY_HEADERS,
  RELAY_WINDOW_SEC,
  signRelay,
  VISITOR_CUSTOMER_ID,
  verifyRelay,
  type RelayedRequest,
  type RelayIdentity,
  type SignedBody,
  type SignRelayOptions,
  type VerifyRelayOptions,
} from './signature.js';
