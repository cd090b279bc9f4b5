package dev.blockcache.api;

import java.util.Objects;

/**
 * One file's handle for building {@link BlockKey}s: the name is checked and hashed once, when the handle is made
 * ({@link BlockKey#file}), so that {@link #block} costs one small object and two 64-bit mixes. A storage engine keeps
 * one handle per open file, as HBase's reader keeps the file's name.
 *
 * <p>A key built here is equal to, and hashes as, the key {@link BlockKey#of} builds from the same name and offset.
 *
 * <p>Thread-safety: immutable.
 */
public final class BlockFile {
  private final String name;
  private final long fileHash;

  BlockFile(String name, long fileHash) {
    this.name = name;
    this.fileHash = fileHash;
  }

  /**
   * The key of the block at {@code offset} in this file.
   *
   * @throws IllegalArgumentException if {@code offset} is negative
   */
  public BlockKey block(long offset) {
    return BlockKey.checked(name, offset, fileHash);
  }

  /**
   * The {@link BlockKey#hash64()} of {@link #block block(offset)}, without building the key: what a cache's scoped
   * read by handle ({@link BlockCache#read(BlockFile, long, ReadOptions, BlockReader)}) looks up.
   *
   * @throws IllegalArgumentException if {@code offset} is negative
   */
  public long blockHash64(long offset) {
    BlockKey.checkOffset(name, offset);
    return BlockKey.hash64(fileHash, offset);
  }

  /** The file's name, as given to {@link BlockKey#file}. */
  public String name() {
    return name;
  }

  /** The hash every key of this file carries as {@link BlockKey#fileHash()}. */
  public long fileHash() {
    return fileHash;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof BlockFile blockFile && name.equals(blockFile.name);
  }

  @Override
  public int hashCode() {
    return Objects.hashCode(name);
  }

  @Override
  public String toString() {
    return name;
  }
}
