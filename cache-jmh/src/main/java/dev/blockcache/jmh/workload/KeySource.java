package dev.blockcache.jmh.workload;

/**
 * How a get benchmark's op comes by its key.
 *
 * <p>Thread-safety: immutable.
 */
public enum KeySource {
  /**
   * Built per lookup from the file's shared name {@code String} and the offset, as a storage engine's reader does
   * (HBase's {@code HFileReaderImpl}: {@code new BlockCacheKey(name, offset, ...)}; ours: {@code BlockKey.of}).
   */
  PER_LOOKUP,
  /**
   * By a per-file handle made once when the file was opened (ours: {@code BlockKey.file(name)}, then a get or scoped
   * read by the handle and the offset, which builds no key); competitors without such a handle build the key from the
   * name, as {@link #PER_LOOKUP}.
   */
  FILE_HANDLE,
  /** Looked up from an array of keys built before measurement: what no reader pays, kept as a reference row. */
  PREBUILT
}
