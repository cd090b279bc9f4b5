package dev.blockcache.bucket.index;

/**
 * Which entries a victim choice ({@link BlockIndex#chooseVictim}) may consider: by fingerprint (membership of a
 * region such as the admission window) and by entry (a size class, say). An entry the filter declines is skipped
 * untouched: it keeps its reference bit and is not counted as a candidate.
 *
 * <p>Thread-safety: called under a segment's write lock; must be short, non-blocking and must not call back into
 * the index.
 */
@FunctionalInterface
public interface VictimFilter {
  /** Whether the entry {@code entry} stored under {@code fingerprint} may be chosen. */
  boolean accepts(long fingerprint, long entry);
}
