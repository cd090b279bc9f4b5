package dev.blockcache.bucket.persist;

import dev.blockcache.bucket.index.BlockIndex;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.zip.CRC32C;

/**
 * Writes a {@link BlockIndex} checkpoint in the {@link IndexFileLayout} format: to {@code <path>.tmp}, fsynced, then
 * atomically renamed over {@code path}, so a reader sees either the previous checkpoint or the new one, whole.
 *
 * <p>Memory: the records are streamed, a few segments at a time, so a checkpoint's heap is about a megabyte at any
 * index size (a checkpoint held whole would take 20 B per entry: over 2 GiB, past a Java array, at 100M entries).
 *
 * <p>Consistency: the index is copied segment by segment, each under its own read lock only while that segment is
 * copied (never across IO), so gets and writers stall for at most one segment's copy. The checkpoint is therefore
 * consistent per segment, not across segments; restore verifies every entry against the device anyway.
 *
 * <p>Thread-safety: not thread-safe; one checkpointing thread per writer.
 */
public final class IndexCheckpointWriter {
  /** Bytes of records gathered before they are written: large writes, a heap cost independent of the index. */
  private static final int FLUSH_BYTES = 1 << 20;

  private final Path path;
  private final long configFingerprint;

  public IndexCheckpointWriter(Path path, long configFingerprint) {
    this.path = path;
    this.configFingerprint = configFingerprint;
  }

  /**
   * Writes one checkpoint of {@code index}, streaming: the records of a few segments at a time are copied (each
   * segment under its read lock, without IO) into a buffer of about {@value #FLUSH_BYTES} bytes, which is written
   * once no lock is held; the heap a checkpoint takes does not grow with the index.
   *
   * @return the number of entries written
   */
  public long write(BlockIndex index) throws IOException {
    Path tmp = path.resolveSibling(path.getFileName() + ".tmp");
    // Created afresh, owner-only: the records name every cached block. A leftover .tmp keeps its old mode if reused.
    Files.deleteIfExists(tmp);
    long count = 0;
    try {
      try (FileChannel ch = FileChannel.open(tmp, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
          ownerOnly(tmp))) {
        CrcOut out = new CrcOut(ch);
        out.write(ByteBuffer.allocate(IndexFileLayout.HEADER_LENGTH).putInt(IndexFileLayout.MAGIC)
            .putInt(IndexFileLayout.VERSION).putLong(configFingerprint).putInt(index.segmentCount()).flip());
        RecordBuffer records = new RecordBuffer();
        for (int s = 0; s < index.segmentCount(); s++) {
          index.forEachIn(s, records::add);
          if (records.buf.position() >= FLUSH_BYTES || s == index.segmentCount() - 1) {
            count += records.count;
            out.write(records.flipped());
            records.clear();
          }
        }
        out.write(ByteBuffer.allocate(8).putLong(count).flip());
        ByteBuffer crc = ByteBuffer.allocate(4).putInt(out.crc()).flip();
        while (crc.hasRemaining()) {
          ch.write(crc);
        }
        ch.force(true);
      }
      Files.move(tmp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException | RuntimeException e) {
      // A failed checkpoint leaves no partial (often 0-byte) .tmp behind; the previous checkpoint stays.
      try {
        Files.deleteIfExists(tmp);
      } catch (IOException cleanup) {
        e.addSuppressed(cleanup);
      }
      throw e;
    }
    return count;
  }

  /** Writes whole buffers to a channel, keeping the CRC32C of every byte written. */
  private static final class CrcOut {
    private final FileChannel ch;
    private final CRC32C crc = new CRC32C();

    CrcOut(FileChannel ch) {
      this.ch = ch;
    }

    void write(ByteBuffer bytes) throws IOException {
      crc.update(bytes.duplicate());
      while (bytes.hasRemaining()) {
        ch.write(bytes);
      }
    }

    int crc() {
      return (int) crc.getValue();
    }
  }

  /** Mode 0600 where the file system has POSIX permissions; nothing elsewhere. */
  private static FileAttribute<?>[] ownerOnly(Path file) {
    return file.getFileSystem().supportedFileAttributeViews().contains("posix")
        ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))}
        : new FileAttribute<?>[0];
  }

  /**
   * Growable heap buffer of records; filled under segment read locks, so it never does IO. It grows to
   * {@value #FLUSH_BYTES} bytes plus one segment's records at most.
   */
  private static final class RecordBuffer {
    private ByteBuffer buf = ByteBuffer.allocate(64 * IndexFileLayout.RECORD_LENGTH);
    private long count;

    void add(int segment, long fingerprint, long entry) {
      if (buf.remaining() < IndexFileLayout.RECORD_LENGTH) {
        ByteBuffer bigger = ByteBuffer.allocate(Math.max(buf.capacity() * 2, IndexFileLayout.RECORD_LENGTH));
        buf.flip();
        bigger.put(buf);
        buf = bigger;
      }
      buf.putInt(segment).putLong(fingerprint).putLong(entry);
      count++;
    }

    ByteBuffer flipped() {
      return buf.flip();
    }

    void clear() {
      buf.clear();
      count = 0;
    }
  }
}
