package dev.blockcache.bucket.index;

/**
 * What the L2 index stores of a key: not the key but a 64-bit fingerprint of it, beside the packed
 * {@link IndexEntry}. The block's full key is written on the device beside the block ({@code BlockHeader}) and the
 * cache checks it on every read, so a fingerprint collision can never serve a wrong block. Fingerprint layout:
 * <pre>
 *  63                    40 39                                           0
 *  +-----------------------+----------------------------------------------+
 *  | file tag (24 bits):   | key bits (40 bits): low 40 bits of           |
 *  | fileHash() &gt;&gt;&gt; 40   | hash64(); 0 is remapped to 1 (0 = empty slot) |
 *  +-----------------------+----------------------------------------------+
 * </pre>
 * The segment an entry lives in is chosen by bits the fingerprint does not hold: the low {@code G} bits of
 * {@code fileHash()} (the file group, {@code G} = log2 of {@link BlockIndex#fileGroups()}) and the top
 * {@value BlockIndex#SUB_BITS} bits of {@code hash64()} (the stripe inside the group):
 * <pre>
 *   segment = (fileHash &amp; (fileGroups - 1)) &lt;&lt; SUB_BITS | hash64 &gt;&gt;&gt; (64 - SUB_BITS)
 * </pre>
 * Two keys are therefore the same to the index when they agree on 24 + G file bits and 40 + 3 key bits. For the
 * keys of one file that is 43 bits: 1,000 files of 1,000 blocks give ~6e-5 expected colliding pairs, one file of
 * 1,000,000 blocks ~0.06. <b>On a collision</b> the second key is treated as present:
 * {@link BlockIndex#putIfAbsent} returns the first key's entry (so the second block is not cached),
 * {@link BlockIndex#get} returns the first key's entry, the cache's header check fails and it reports a miss. The
 * caller must not remove the mapping on that mismatch (it is the first key's, and still valid); if it does, only a
 * cached block is lost.
 *
 * <p>Thread-safety: stateless.
 */
final class Fingerprint {
  /** Low bits that carry the key hash; the {@link BlockIndex#TAG_BITS} above them carry the file tag. */
  private static final int KEY_BITS = 64 - BlockIndex.TAG_BITS;
  private static final long KEY_MASK = (1L << KEY_BITS) - 1;

  private Fingerprint() {
  }

  /** The fingerprint of the key whose {@code fileHash()} and {@code hash64()} are given; never 0 (an empty slot). */
  static long of(long fileHash, long hash64) {
    long fp = (fileHash & ~KEY_MASK) | (hash64 & KEY_MASK);
    return fp == 0 ? 1 : fp;
  }

  /** The file tag of a stored fingerprint (or of a fileHash). */
  static long tagOf(long fingerprintOrFileHash) {
    return fingerprintOrFileHash >>> KEY_BITS;
  }
}
