package dev.blockcache.bucket.slot;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CachePriority;
import dev.blockcache.bucket.BucketCache;

/**
 * One block in an L2 slot, as {@link BucketCache#entries()} reports it: its full key (read back from the block's
 * header, since the index keeps only a fingerprint), its category and priority, and the bytes its slot holds
 * (header included).
 *
 * <p>Thread-safety: immutable.
 */
public record CachedEntry(BlockKey key, BlockCategory category, CachePriority priority, int storedLength) {}
