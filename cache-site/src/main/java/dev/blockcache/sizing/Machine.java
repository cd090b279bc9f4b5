package dev.blockcache.sizing;

import dev.blockcache.bucket.format.BlockHeader;
import dev.blockcache.config.ConfigException;
import java.util.List;

/**
 * The machine and workload a cache is sized for: the JVM's max heap ({@code -Xmx}), its direct memory limit
 * ({@code -XX:MaxDirectMemorySize}), the RAM of the machine, the sizes of the disks that hold file-engine files, RAM
 * kept for other processes, the block size and the length of the file names in block keys.
 *
 * <p>Each setting is named after the {@link SizingTool} argument that sets it, and errors name that argument.
 *
 * <p>Thread-safety: immutable.
 */
public final class Machine {
  /** HBase's default block size: 64 KiB. */
  public static final int DEFAULT_BLOCK_SIZE = 64 * 1024;
  /** An HBase store file name is 32 hex characters, and HBase keys blocks by that name: 32 bytes. */
  public static final int DEFAULT_FILE_NAME_BYTES = 32;
  /** Largest block size accepted: 1 GiB, far above any storage engine's blocks. */
  public static final int MAX_BLOCK_SIZE = 1 << 30;

  private final long heapBytes;
  private final long directMemoryBytes;
  private final long ramBytes;
  private final List<Long> diskBytes;
  private final long reservedRamBytes;
  private final int blockSize;
  private final int fileNameBytes;

  private Machine(Builder b) {
    this.heapBytes = positive("--heap", b.heapBytes);
    this.directMemoryBytes = b.directMemoryBytes == 0 ? heapBytes : positive("--direct-memory", b.directMemoryBytes);
    this.ramBytes = positive("--ram", b.ramBytes);
    if (ramBytes < heapBytes) {
      throw new ConfigException("--ram", ramBytes, "at least the heap (--heap=" + heapBytes + ")");
    }
    for (long disk : b.diskBytes) {
      positive("--disk", disk);
    }
    this.diskBytes = List.copyOf(b.diskBytes);
    if (b.reservedRamBytes < 0 || b.reservedRamBytes >= ramBytes) {
      throw new ConfigException("--reserved-ram", b.reservedRamBytes, "bytes in [0, --ram)");
    }
    this.reservedRamBytes = b.reservedRamBytes;
    if (b.blockSize < 1 || b.blockSize > MAX_BLOCK_SIZE) {
      throw new ConfigException("--block-size", b.blockSize, "a size in [1, " + MAX_BLOCK_SIZE + "] bytes");
    }
    this.blockSize = (int) b.blockSize;
    if (b.fileNameBytes < 0 || b.fileNameBytes > BlockHeader.MAX_NAME_LENGTH) {
      throw new ConfigException("--file-name-bytes", b.fileNameBytes,
          "a length in [0, " + BlockHeader.MAX_NAME_LENGTH + "] bytes");
    }
    this.fileNameBytes = (int) b.fileNameBytes;
  }

  private static long positive(String name, long bytes) {
    if (bytes <= 0) {
      throw new ConfigException(name, bytes, "a size of at least 1 byte");
    }
    return bytes;
  }

  /** A machine with a heap of {@code heapBytes} and {@code ramBytes} of RAM; the rest defaults. */
  public static Builder builder(long heapBytes, long ramBytes) {
    return new Builder(heapBytes, ramBytes);
  }

  /** The JVM's max heap ({@code -Xmx}). */
  public long heapBytes() {
    return heapBytes;
  }

  /** The JVM's direct memory limit; the heap when not set, as the JDK's default {@code MaxDirectMemorySize} is. */
  public long directMemoryBytes() {
    return directMemoryBytes;
  }

  public long ramBytes() {
    return ramBytes;
  }

  /** Sizes of the disks under the file engine's files: none (not checked), one for all files, or one per file. */
  public List<Long> diskBytes() {
    return diskBytes;
  }

  /** RAM kept for the OS and other processes (a DataNode, say), not available to the page cache. */
  public long reservedRamBytes() {
    return reservedRamBytes;
  }

  public int blockSize() {
    return blockSize;
  }

  /** UTF-8 length of the file names in block keys; the L2 writes the name in each block's header. */
  public int fileNameBytes() {
    return fileNameBytes;
  }

  /**
   * Accumulates settings; {@link #build()} validates them.
   *
   * <p>Thread-safety: not thread-safe.
   */
  public static final class Builder {
    private long heapBytes;
    private long ramBytes;
    private long directMemoryBytes;
    private List<Long> diskBytes = List.of();
    private long reservedRamBytes;
    private long blockSize = DEFAULT_BLOCK_SIZE;
    private long fileNameBytes = DEFAULT_FILE_NAME_BYTES;

    private Builder(long heapBytes, long ramBytes) {
      this.heapBytes = heapBytes;
      this.ramBytes = ramBytes;
    }

    /** {@code -XX:MaxDirectMemorySize}; unset means the heap size (the JDK's default). */
    public Builder directMemory(long bytes) {
      this.directMemoryBytes = bytes;
      return this;
    }

    /** One size for every file of the engine, or one per file in the order of {@code hbase.bucketcache.ioengine}. */
    public Builder disks(List<Long> bytes) {
      this.diskBytes = List.copyOf(bytes);
      return this;
    }

    public Builder reservedRam(long bytes) {
      this.reservedRamBytes = bytes;
      return this;
    }

    public Builder blockSize(long bytes) {
      this.blockSize = bytes;
      return this;
    }

    public Builder fileNameBytes(long bytes) {
      this.fileNameBytes = bytes;
      return this;
    }

    /**
     * The validated machine.
     *
     * @throws ConfigException naming the first argument whose value is out of range
     */
    public Machine build() {
      return new Machine(this);
    }
  }
}
