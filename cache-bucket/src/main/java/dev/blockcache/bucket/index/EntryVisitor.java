package dev.blockcache.bucket.index;

/**
 * Visits the raw content of a {@link BlockIndex}, e.g. to persist it; {@link BlockIndex#restore} puts a visited
 * triple back into an index with the same {@link BlockIndex#segmentCount()}.
 *
 * <p>Thread-safety: called while the index holds the segment's read lock; a visitor must not call back into the
 * index.
 */
@FunctionalInterface
public interface EntryVisitor {
  /**
   * One entry.
   *
   * @param segment the segment that holds it: it carries bits of the key's hashes the fingerprint does not store
   * @param fingerprint the stored 64-bit fingerprint (layout in {@link BlockIndex}); its top
   *     {@link BlockIndex#TAG_BITS} bits are the file tag
   * @param entry the {@link IndexEntry} value
   */
  void visit(int segment, long fingerprint, long entry);
}
