package dev.blockcache.hbase.clients;

import dev.blockcache.bucket.config.BucketCacheKeys;
import dev.blockcache.hbase.minicluster.RegionServerStack;
import org.apache.hadoop.conf.Configuration;

/**
 * The RegionServer stacks the clients read through, as an operator's hbase-site.xml sets them: cache-hbase-minicluster's
 * three placements ({@link RegionServerStack}) and ours exclusive with our copy-on-read key, the copying read path
 * HBase 2.6 no longer has, for the zero-copy against copy comparison. All set the same L2 engine and size.
 *
 * <p>Thread-safety: immutable.
 */
enum ClientStack {
  /** HBase's own BucketCache ({@code offheap}): the baseline every ratio divides by. */
  HBASE_BUCKET(RegionServerStack.HBASE_BUCKET, false),
  /** Ours behind {@code hbase.blockcache.external.class}, as docs/hbase.md's hook deploys it. */
  OURS_HOOK(RegionServerStack.OURS_HOOK, false),
  /** Ours placed by {@code hbase.regionserver.impl}: L2 hits reach the reader as off-heap blocks. */
  OURS_EXCLUSIVE(RegionServerStack.OURS_EXCLUSIVE, false),
  /** Ours exclusive with {@code hbase.bucketcache.read.copy=true}: every L2 hit copied onto the heap. */
  OURS_EXCLUSIVE_COPY(RegionServerStack.OURS_EXCLUSIVE, true);

  private final RegionServerStack placement;
  private final boolean copyOnRead;

  ClientStack(RegionServerStack placement, boolean copyOnRead) {
    this.placement = placement;
    this.copyOnRead = copyOnRead;
  }

  /** Adds this stack's keys to {@code conf}, which already names the L2's engine and size. */
  void configure(Configuration conf) {
    placement.configure(conf);
    if (copyOnRead) {
      conf.setBoolean(BucketCacheKeys.COPY_ON_READ, true);
    }
  }
}
