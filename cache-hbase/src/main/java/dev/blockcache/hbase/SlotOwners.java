package dev.blockcache.hbase;

import dev.blockcache.bucket.BucketCache;
import dev.blockcache.bucket.index.IndexEntry;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Which file (by a small int id) owns each occupied slot of one L2, so that a block leaving a slot, known to the L2
 * only by its packed index entry, can be charged back to its file. One int per slot of the size class its bucket
 * holds: a bucket's table is made when a block first takes a slot of it, and made again when the bucket has changed
 * size class (it is empty then). Id 0 means "no owner known".
 *
 * <p>Thread-safety: safe for concurrent use. A slot's owner is set before its block is published in the index and
 * taken after it left the index, so the index's locks order the two; different slots never share an element.
 */
final class SlotOwners {
  /** Id of no file. */
  static final int NONE = 0;

  private final BucketCache l2;
  private final int bucketCapacity;
  private final AtomicReferenceArray<AtomicIntegerArray> byBucket;

  SlotOwners(BucketCache l2) {
    this.l2 = l2;
    this.bucketCapacity = l2.bucketCapacity();
    this.byBucket = new AtomicReferenceArray<>((int) (l2.capacity() / bucketCapacity) + 1);
  }

  /** Records {@code owner} (not {@link #NONE}) for the slot {@code entry} describes. */
  void set(long entry, int owner) {
    long offset = IndexEntry.offset(entry);
    int slotSize = l2.slotSize(IndexEntry.length(entry));
    int bucket = (int) (offset / bucketCapacity);
    int item = (int) (offset % bucketCapacity) / slotSize;
    tableOf(bucket, bucketCapacity / slotSize).set(item, owner);
  }

  /** The owner of the slot {@code entry} describes, which is cleared, or {@link #NONE}. */
  int take(long entry) {
    long offset = IndexEntry.offset(entry);
    int slotSize = l2.slotSize(IndexEntry.length(entry));
    AtomicIntegerArray table = byBucket.get((int) (offset / bucketCapacity));
    if (slotSize == 0 || table == null || table.length() != bucketCapacity / slotSize) {
      return NONE;
    }
    return table.getAndSet((int) (offset % bucketCapacity) / slotSize, NONE);
  }

  private AtomicIntegerArray tableOf(int bucket, int slots) {
    while (true) {
      AtomicIntegerArray table = byBucket.get(bucket);
      if (table != null && table.length() == slots) {
        return table;
      }
      AtomicIntegerArray fresh = new AtomicIntegerArray(slots);
      if (byBucket.compareAndSet(bucket, table, fresh)) {
        return fresh;
      }
    }
  }
}
