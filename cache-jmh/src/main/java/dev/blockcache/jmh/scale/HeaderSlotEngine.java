package dev.blockcache.jmh.scale;

import dev.blockcache.bucket.engine.IoEngine;
import dev.blockcache.bucket.format.BlockHeader;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.zip.CRC32C;

/**
 * A measuring device, not a cache engine: an {@link IoEngine} that keeps only each slot's {@link BlockHeader} and
 * gives back zeros for the block bytes, so that an L2 of 64 million 64 KiB blocks (4.2 TiB of slots) runs on a machine with a
 * fraction of that disk. It lives in cache-jmh only; the scale report names every run that used it.
 *
 * <h2>Layout</h2>
 * One record per cell of {@code stride} engine bytes, in a file of its own:
 * <pre>
 *  0                8          10                                  80
 *  +----------------+----------+-----------------------------------+
 *  | slot start + 1 | hdr len  | block header (24 + name bytes)    |
 *  | i64            | u16      |                                   |
 *  +----------------+----------+-----------------------------------+
 * </pre>
 * Record {@code offset / stride} belongs to the slot written at {@code offset}. Writes shorter than {@code stride}
 * are refused, so two slots (each at least a write long) never share a cell. A zero start means "never written".
 *
 * <h2>What it verifies</h2>
 * A write must carry a version-{@value BlockHeader#VERSION} header whose length field agrees with the write's
 * length and whose CRC32C (which the cache computed from the block) is that of zeros: so the bytes a read gives back (the stored
 * header, then zeros) are exactly the bytes written, and the cache's own key and checksum checks run on every read
 * as they do on a {@code file:} engine. A read must start at a slot's start ({@link IOException} otherwise), and a
 * cell written by another slot reads as zeros, which no header check accepts.
 *
 * <p>The record file survives the process (the OS page cache holds it), so a cache killed with {@code kill -9} finds
 * its slots' headers on restart as it would find a {@code file:} engine's.
 *
 * <p>Thread-safety: safe for concurrent use; positional IO on one {@link FileChannel}.
 */
final class HeaderSlotEngine extends IoEngine {
  /** The scheme in this engine's spec. */
  static final String SCHEME = "headers";
  /** Bytes per record; a header of up to {@value #MAX_HEADER} bytes fits (file names of up to 46 bytes). */
  static final int RECORD = 80;
  private static final int MAX_HEADER = RECORD - 10;

  /** Zeros that reads copy and writes compare with: 1 MiB, more than any block a benchmark caches. */
  private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(1 << 20).asReadOnlyBuffer();
  /** CRC32C of zeros by length: the experiments cache one or two block sizes. */
  private static final Map<Integer, Integer> ZEROS_CRC = new ConcurrentHashMap<>();

  private final FileChannel records;
  private final int stride;
  private final LongAdder syncs = new LongAdder();

  private HeaderSlotEngine(String spec, long capacity, int segmentSize, FileChannel records, int stride) {
    super(spec, capacity, segmentSize);
    this.records = records;
    this.stride = stride;
  }

  /**
   * An engine of {@code capacity} bytes whose records live in {@code file} (kept if it exists: a restart finds its
   * headers); {@code stride} must not exceed the shortest slot write the cache will make.
   */
  static HeaderSlotEngine open(Path file, long capacity, int segmentSize, int stride) throws IOException {
    FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
        StandardOpenOption.WRITE);
    return new HeaderSlotEngine(SCHEME + ":" + file, capacity, segmentSize, ch, stride);
  }

  /** Bytes of record file an engine of {@code capacity} bytes fills at most. */
  static long recordBytes(long capacity, int stride) {
    return capacity / stride * RECORD;
  }

  /** Calls of {@link #sync()} so far: the cache syncs its engine once at the start of every checkpoint. */
  long syncs() {
    return syncs.sum();
  }

  @Override
  public boolean isMemory() {
    return false;
  }

  @Override
  public boolean isPersistent() {
    return true;
  }

  @Override
  protected void writeImpl(long offset, ByteBuf src, int srcIndex, int length) throws IOException {
    if (length < stride) {
      throw new IOException(spec() + ": a write of " + length + " bytes is shorter than the stride " + stride);
    }
    int nameLength = src.getUnsignedShort(srcIndex + BlockHeader.NAME_LENGTH_OFFSET);
    int header = BlockHeader.FIXED_LENGTH + nameLength;
    int block = src.getInt(srcIndex + BlockHeader.LENGTH_OFFSET);
    if (src.getInt(srcIndex + BlockHeader.MAGIC_OFFSET) != BlockHeader.MAGIC
        || src.getUnsignedByte(srcIndex + BlockHeader.VERSION_OFFSET) != BlockHeader.VERSION
        || header > MAX_HEADER || header + block != length) {
      throw new IOException(spec() + ": no header for a " + length + "-byte slot at " + offset);
    }
    // The cache computed the CRC32C from the block it wrote: equal to the zeros' CRC32C, the block is zeros (but for
    // a 2^-32 chance), without a scan of its bytes per write.
    if (src.getInt(srcIndex + BlockHeader.CRC_OFFSET) != zerosCrc(block)) {
      throw new IOException(spec() + ": the block at " + offset + " is not zeros with their CRC32C");
    }
    ByteBuffer record = ByteBuffer.allocate(RECORD);
    record.putLong(offset + 1).putShort((short) header);
    record.put(src.nioBuffer(srcIndex, header)).clear(); // the whole record: a read takes RECORD bytes
    long at = offset / stride * RECORD;
    while (record.hasRemaining()) {
      at += records.write(record, at);
    }
  }

  @Override
  protected void readImpl(long offset, ByteBuf dst, int length) throws IOException {
    ByteBuffer record = ByteBuffer.allocate(RECORD);
    long at = offset / stride * RECORD;
    while (record.hasRemaining() && records.read(record, at + record.position()) > 0) {
      // positional reads until the record is whole or the file ends (a never-written cell reads as zeros)
    }
    record.flip();
    int header = 0;
    if (record.remaining() == RECORD && record.getLong(0) == offset + 1) {
      header = Math.min(record.getShort(8), length);
      dst.writeBytes(record.position(10).limit(10 + header));
    } // else: never written, or written by a slot that started elsewhere: zeros, which no header check accepts
    for (int left = length - header; left > 0;) {
      int n = Math.min(left, ZEROS.capacity());
      dst.writeBytes(ZEROS.duplicate().limit(n));
      left -= n;
    }
  }

  @Override
  protected void syncImpl() {
    // Records reach the page cache at once, which outlives a killed process; the experiment simulates kill -9, not
    // power loss, so nothing is forced to the device.
    syncs.increment();
  }

  @Override
  protected void closeImpl() {
    try {
      records.close();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** CRC32C of {@code length} zero bytes. */
  static int zerosCrc(int length) {
    return ZEROS_CRC.computeIfAbsent(length, HeaderSlotEngine::computeZerosCrc);
  }

  private static int computeZerosCrc(int length) {
    CRC32C crc = new CRC32C();
    for (int left = length; left > 0;) {
      int n = Math.min(left, ZEROS.capacity());
      crc.update(ZEROS.duplicate().limit(n));
      left -= n;
    }
    return (int) crc.getValue();
  }
}
