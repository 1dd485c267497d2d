// The idempotency cache for refund requests (key -> refund id).
import { createCache, type CacheOptions } from '@platform/cache';

const options: CacheOptions = {
  name: 'refund-idempotency',
  // No ttl: entries stay until the process restarts.
  maxEntries: 100_000,
};

// Keys are the client's Idempotency-Key header; values are refund ids. The implementation
// comes from the platform package (not vendored here), so its eviction policy is not readable.
export const idempotencyCache = createCache(options);
