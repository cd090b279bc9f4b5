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
 * <p>Consistency: the index is copied segment by segment, each under its own read lock only while that segment is
 * copied (never across IO), so gets and writers stall for at most one segment's copy. The checkpoint is therefore
 * consistent per segment, not across segments; restore verifies every entry against the device anyway.
 *
 * <p>Thread-safety: not thread-safe; one checkpointing thread per writer.
 */
public final class IndexCheckpointWriter {
  private final Path path;
  private final long configFingerprint;

  public IndexCheckpointWriter(Path path, long configFingerprint) {
    this.path = path;
    this.configFingerprint = configFingerprint;
  }

  /**
   * Writes one checkpoint of {@code index}.
   *
   * @return the number of entries written
   */
  public long write(BlockIndex index) throws IOException {
    RecordBuffer records = new RecordBuffer();
    index.forEach(records::add);
    ByteBuffer header = ByteBuffer.allocate(IndexFileLayout.HEADER_LENGTH);
    header.putInt(IndexFileLayout.MAGIC).putInt(IndexFileLayout.VERSION).putLong(configFingerprint)
        .putInt(index.segmentCount()).flip();
    ByteBuffer body = records.flipped();
    CRC32C crc = new CRC32C();
    crc.update(header.duplicate());
    crc.update(body.duplicate());
    ByteBuffer count = ByteBuffer.allocate(8).putLong(records.count).flip();
    crc.update(count.duplicate());
    ByteBuffer trailer = ByteBuffer.allocate(IndexFileLayout.TRAILER_LENGTH)
        .putLong(records.count).putInt((int) crc.getValue()).flip();
    Path tmp = path.resolveSibling(path.getFileName() + ".tmp");
    // Created afresh, owner-only: the records name every cached block. A leftover .tmp keeps its old mode if reused.
    Files.deleteIfExists(tmp);
    try {
      try (FileChannel ch = FileChannel.open(tmp, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
          ownerOnly(tmp))) {
        ByteBuffer[] parts = {header, body, trailer};
        long expected = IndexFileLayout.fileLength(records.count);
        long written = 0;
        while (written < expected) {
          written += ch.write(parts);
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
    return records.count;
  }

  /** Mode 0600 where the file system has POSIX permissions; nothing elsewhere. */
  private static FileAttribute<?>[] ownerOnly(Path file) {
    return file.getFileSystem().supportedFileAttributeViews().contains("posix")
        ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))}
        : new FileAttribute<?>[0];
  }

  /** Growable heap buffer of records; filled under segment read locks, so it never does IO. */
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
  }
}
