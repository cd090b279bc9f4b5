package dev.blockcache.jmh.scale;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CachePriority;
import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.bucket.config.EngineGeometry;
import dev.blockcache.bucket.format.BlockHeader;
import dev.blockcache.bucket.index.BlockIndex;
import dev.blockcache.bucket.index.IndexEntry;
import dev.blockcache.bucket.persist.ConfigFingerprint;
import dev.blockcache.bucket.persist.IndexFileLayout;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * Fills a {@link ScaleCell} on the {@link HeaderSlotEngine} without the insert path: writes the slot headers of keys
 * {@code 0 .. blocks - 1} and the cache's index checkpoint naming them, as a cache that had cached those blocks would
 * have left them (items of the block's size class packed into buckets from offset 0, every block SINGLE priority,
 * DATA). Opening the cell then restores them through the cache's own restore path. A 64M-block fill through
 * {@code handOver} computes and copies 4 TiB (a CRC32C and a copy per 64 KiB block), which takes most of an hour on
 * a shared two-core machine; this takes the time of writing the two files.
 *
 * <p>Formats: {@link HeaderSlotEngine} records and {@link IndexFileLayout}; the config fingerprint is the one the
 * cache computes for the cell ({@link ConfigFingerprint}), so a restore accepts the checkpoint.
 *
 * <p>Thread-safety: stateless.
 */
final class ScalePrefill {
  /** Bytes written per call to either file. */
  private static final int WINDOW = 1 << 20;

  private ScalePrefill() {}

  static void write(ScaleCell cell) throws IOException {
    BucketCacheConfig config = cell.config(1000);
    long engineCapacity = EngineGeometry.capacity(config);
    int bucket = config.bucketCapacity();
    int item = 0;
    for (int s : config.bucketSizes()) {
      if (s >= cell.stored()) {
        item = s;
        break;
      }
    }
    int perBucket = bucket / item;
    BlockIndex shape = new BlockIndex(EngineGeometry.expectedIndexEntries(engineCapacity)); // segments as the cache's
    Path headersFile = cell.dir().resolve("headers.bin");
    long fingerprint = ConfigFingerprint.of(ConfigFingerprint.describe(config.capacity(), config.bucketSizes(),
        bucket, HeaderSlotEngine.SCHEME + ":" + headersFile));
    ScaleKeys names = cell.keys();
    int crc = HeaderSlotEngine.zerosCrc(cell.blockSize());
    ByteBuf header = Unpooled.buffer(HeaderSlotEngine.RECORD);
    try (FileChannel headers = FileChannel.open(headersFile, StandardOpenOption.CREATE_NEW,
        StandardOpenOption.WRITE);
        FileChannel index = FileChannel.open(cell.dir().resolve("index"), StandardOpenOption.CREATE_NEW,
            StandardOpenOption.WRITE)) {
      Window records = new Window(headers);
      CrcOut checkpoint = new CrcOut(index);
      checkpoint.put(ByteBuffer.allocate(IndexFileLayout.HEADER_LENGTH).putInt(IndexFileLayout.MAGIC)
          .putInt(IndexFileLayout.VERSION).putLong(fingerprint).putInt(shape.segmentCount()).flip());
      ByteBuffer record = ByteBuffer.allocate(IndexFileLayout.RECORD_LENGTH);
      for (int i = 0; i < cell.blocks(); i++) {
        BlockKey key = names.key(i);
        long offset = (long) (i / perBucket) * bucket + (long) (i % perBucket) * item;
        BlockHeader.writeHeader(header.clear(), key, BlockCategory.DATA, cell.blockSize(), crc);
        records.put(offset / cell.stored() * HeaderSlotEngine.RECORD, offset + 1, header);
        long entry = IndexEntry.pack(offset, cell.stored(), CachePriority.SINGLE, BlockCategory.DATA);
        checkpoint.put(record.clear().putInt(shape.segmentIndex(key)).putLong(BlockIndex.fingerprint(key))
            .putLong(entry).flip());
      }
      records.flush();
      checkpoint.put(ByteBuffer.allocate(8).putLong(cell.blocks()).flip());
      checkpoint.flush();
      ByteBuffer sum = ByteBuffer.allocate(4).putInt(checkpoint.crc()).flip();
      while (sum.hasRemaining()) {
        index.write(sum);
      }
    } finally {
      header.release();
    }
  }

  /** Writes records at increasing positions through a zero-filled window (zeros: cells never written). */
  private static final class Window {
    private final FileChannel ch;
    private final ByteBuffer buf = ByteBuffer.allocate(WINDOW);
    private long start;

    Window(FileChannel ch) {
      this.ch = ch;
    }

    void put(long at, long tag, ByteBuf header) throws IOException {
      if (at + HeaderSlotEngine.RECORD > start + WINDOW) {
        flush();
        start = at;
      }
      int rel = (int) (at - start);
      buf.putLong(rel, tag).putShort(rel + 8, (short) header.readableBytes());
      header.getBytes(header.readerIndex(), buf.slice(rel + 10, header.readableBytes()));
      buf.position(Math.max(buf.position(), rel + HeaderSlotEngine.RECORD));
    }

    void flush() throws IOException {
      buf.flip();
      long at = start;
      while (buf.hasRemaining()) {
        at += ch.write(buf, at);
      }
      Arrays.fill(buf.array(), (byte) 0);
      buf.clear();
    }
  }

  /** Buffers bytes for a channel, keeping the CRC32C of every byte put. */
  private static final class CrcOut {
    private final FileChannel ch;
    private final ByteBuffer buf = ByteBuffer.allocate(WINDOW);
    private final CRC32C crc = new CRC32C();

    CrcOut(FileChannel ch) {
      this.ch = ch;
    }

    void put(ByteBuffer bytes) throws IOException {
      crc.update(bytes.duplicate());
      if (buf.remaining() < bytes.remaining()) {
        flush();
      }
      buf.put(bytes);
    }

    void flush() throws IOException {
      buf.flip();
      while (buf.hasRemaining()) {
        ch.write(buf);
      }
      buf.clear();
    }

    int crc() {
      return (int) crc.getValue();
    }
  }
}
