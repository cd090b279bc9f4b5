package dev.blockcache.api;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Names one block: the file it belongs to and its byte offset in that file.
 *
 * <p>The file is named by a string (an HFile name, a path, a UUID: whatever the storage engine uses; it is compared
 * by value). A key precomputes a 64-bit hash of the file name and a 64-bit hash of the whole key, so that an index
 * keyed by {@link #hash64()} never touches the string and evict-by-file can group keys by {@link #fileHash()}.
 * The file hash is a hash of the name's UTF-8 bytes (the form an L2 stores beside its blocks), computed from the
 * chars without encoding them; {@link #of} computes it per call, a {@link BlockFile} from {@link #file} once per file.
 * A key is one 40-byte object, whichever way it is built; a storage engine should reuse one name {@code String}
 * (or one {@link BlockFile}) per open file, so that equal keys compare names by reference first.
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
    this.hash64 = hash64(fileHash, offset);
  }

  /** The {@link #hash64()} of the key at {@code offset} in the file whose {@link #fileHash()} is {@code fileHash}. */
  static long hash64(long fileHash, long offset) {
    return Hashing.mix64(fileHash ^ Hashing.mix64(offset + 0x9E3779B97F4A7C15L));
  }

  /**
   * The key of the block at {@code offset} in {@code file}. The name's hash comes from a small memo of recently
   * hashed names ({@link NameHashes}), or else from one pass over its chars (no encoding); nothing is allocated but
   * the key on a memo hit. A caller that builds many keys of one file can also hash it once with
   * {@link #file(String)}.
   *
   * @throws NullPointerException if {@code file} is null
   * @throws IllegalArgumentException if {@code file} is empty or has no UTF-8 form (an unpaired surrogate), or
   *     {@code offset} is negative
   */
  public static BlockKey of(String file, long offset) {
    checkName(file);
    checkOffset(file, offset);
    return new BlockKey(file, offset, NameHashes.of(file));
  }

  /**
   * A handle on {@code file} that builds its keys without hashing the name again: {@code file(f).block(o)} equals
   * {@code of(f, o)}.
   *
   * @throws NullPointerException if {@code file} is null
   * @throws IllegalArgumentException if {@code file} is empty or has no UTF-8 form (an unpaired surrogate)
   */
  public static BlockFile file(String file) {
    checkName(file);
    return new BlockFile(file, NameHash.of(file));
  }

  /** A key of a name already checked and hashed by a {@link BlockFile}. */
  static BlockKey checked(String file, long offset, long fileHash) {
    checkOffset(file, offset);
    return new BlockKey(file, offset, fileHash);
  }

  private static void checkName(String file) {
    Objects.requireNonNull(file, "file");
    if (file.isEmpty()) {
      throw new IllegalArgumentException("BlockKey file name must not be empty");
    }
  }

  static void checkOffset(String file, long offset) {
    if (offset < 0) {
      throw new IllegalArgumentException("BlockKey offset must be >= 0, was " + offset + " in file " + file);
    }
  }

  /**
   * The 64-bit hash that {@link #fileHash()} returns for every key of {@code file}: a hash of the name's UTF-8 bytes,
   * computed from its chars. A name with no UTF-8 form (no key has it) hashes as its lossy encoding, as it always
   * did, so that evict-by-file on such a name finds nothing instead of throwing.
   */
  public static long fileHash(String file) {
    try {
      return NameHash.of(file);
    } catch (IllegalArgumentException noUtf8Form) {
      return Hashing.hashBytes(file.getBytes(StandardCharsets.UTF_8));
    }
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
    return Long.hashCode(hash64);
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof BlockKey other)) {
      return false;
    }
    return hash64 == other.hash64 && offset == other.offset && file.equals(other.file);
  }

  @Override
  public String toString() {
    return file + "@" + offset;
  }
}
