package dev.blockcache.api;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Objects;

/**
 * Names one block: the file it belongs to and its byte offset in that file.
 *
 * <p>The file is named by a string (an HFile name, a path, a UUID: whatever the storage engine uses; it is compared
 * by value). A key precomputes a 64-bit hash of the file name and a 64-bit hash of the whole key, so that an index
 * keyed by {@link #hash64()} never touches the string and evict-by-file can group keys by {@link #fileHash()}.
 * Storage engines should reuse one {@code String} instance per open file: keys then cost 32 bytes each.
 *
 * <p>Thread-safety: immutable.
 */
public final class BlockKey {
  private final String file;
  private final long offset;
  private final long fileHash;
  private final long hash64;

  private BlockKey(String file, long offset, long fileHash) {
    this.file = file;
    this.offset = offset;
    this.fileHash = fileHash;
    this.hash64 = Hashing.mix64(fileHash ^ Hashing.mix64(offset + 0x9E3779B97F4A7C15L));
  }

  /**
   * The key of the block at {@code offset} in {@code file}.
   *
   * @throws NullPointerException if {@code file} is null
   * @throws IllegalArgumentException if {@code file} is empty or {@code offset} is negative
   */
  public static BlockKey of(String file, long offset) {
    Objects.requireNonNull(file, "file");
    if (file.isEmpty()) {
      throw new IllegalArgumentException("BlockKey file name must not be empty");
    }
    if (offset < 0) {
      throw new IllegalArgumentException("BlockKey offset must be >= 0, was " + offset + " in file " + file);
    }
    int bad = unpairedSurrogate(file);
    if (bad >= 0) {
      throw new IllegalArgumentException("BlockKey file name has an unpaired surrogate (U+"
          + Integer.toHexString(file.charAt(bad)).toUpperCase(Locale.ROOT) + ") at index " + bad
          + ": it has no UTF-8 form, and caches that store names in UTF-8 could not tell it from another name");
    }
    return new BlockKey(file, offset, fileHash(file));
  }

  /** The index of the first unpaired surrogate in {@code s}, or -1 if it is well-formed UTF-16. */
  private static int unpairedSurrogate(String s) {
    int n = s.length();
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        return i;
      }
    }
    return -1;
  }

  /** The 64-bit hash that {@link #fileHash()} returns for every key of {@code file}. */
  public static long fileHash(String file) {
    return Hashing.hashBytes(file.getBytes(StandardCharsets.UTF_8));
  }

  public String file() {
    return file;
  }

  public long offset() {
    return offset;
  }

  /** A well-mixed 64-bit hash of the file name alone: equal for every block of one file. */
  public long fileHash() {
    return fileHash;
  }

  /** A well-mixed 64-bit hash of file and offset; compact indexes key on it and check the full key on read. */
  public long hash64() {
    return hash64;
  }

  @Override
  public int hashCode() {
    return (int) (hash64 ^ (hash64 >>> 32));
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof BlockKey)) {
      return false;
    }
    BlockKey other = (BlockKey) o;
    return hash64 == other.hash64 && offset == other.offset && file.equals(other.file);
  }

  @Override
  public String toString() {
    return file + "@" + offset;
  }
}
