package dev.blockcache.bucket.persist;

import dev.blockcache.bucket.index.EntryVisitor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * Reads a checkpoint written by {@link IndexCheckpointWriter}. Every length is checked against the file size before
 * anything is allocated, and the CRC32C is checked before any record is handed out, so a truncated, corrupt,
 * foreign or oversized file is rejected whole: no OOM, no hang, no partial restore.
 *
 * <p>Records handed to the visitor are only what the checkpoint says: the caller must still verify each block on
 * the device before serving it.
 *
 * <p>Thread-safety: stateless apart from its configuration; safe to share.
 */
public final class IndexCheckpointReader {
  /** Why a checkpoint was or was not used. */
  public enum Status { RESTORED, MISSING, CONFIG_MISMATCH, CORRUPT }

  /** Told, before any record is handed out, how many records name each segment (records naming none are left out). */
  @FunctionalInterface
  public interface SegmentCounts {
    void expect(int segment, int records);
  }

  /** Outcome of one read: a status, a reason for logs and the number of records handed out. */
  public record Result(Status status, String reason, long records) {}

  /** Largest checkpoint accepted: 100 M records (2 GB), well above any index that fits 4 TiB of slots. */
  static final long MAX_FILE_LENGTH = IndexFileLayout.fileLength(100_000_000L);

  private final long configFingerprint;

  public IndexCheckpointReader(long configFingerprint) {
    this.configFingerprint = configFingerprint;
  }

  /**
   * Reads {@code path} and, only if it is whole and from this configuration, hands every record to {@code sink}.
   * Never throws for bad content; an IO error while reading is reported as {@link Status#CORRUPT}.
   */
  public Result read(Path path, int segmentCount, EntryVisitor sink) {
    return read(path, segmentCount, (segment, records) -> { }, sink);
  }

  /**
   * As {@link #read(Path, int, EntryVisitor)}, telling {@code counts} how many records each segment gets before
   * {@code sink} sees the first one.
   */
  public Result read(Path path, int segmentCount, SegmentCounts counts, EntryVisitor sink) {
    Object loaded = load(path);
    if (loaded instanceof Result refused) {
      return refused;
    }
    ByteBuffer file = (ByteBuffer) loaded;
    long count = file.getLong(file.limit() - IndexFileLayout.TRAILER_LENGTH);
    long fp = file.getLong(IndexFileLayout.CONFIG_OFFSET);
    int segs = file.getInt(IndexFileLayout.SEGMENTS_OFFSET);
    if (fp != configFingerprint || segs != segmentCount) {
      return new Result(Status.CONFIG_MISMATCH, "written by another configuration (fingerprint "
          + Long.toHexString(fp) + ", " + segs + " segments; this cache: " + Long.toHexString(configFingerprint)
          + ", " + segmentCount + " segments)", 0);
    }
    int[] perSegment = new int[segmentCount];
    for (long i = 0; i < count; i++) {
      int segment = file.getInt((int) (IndexFileLayout.HEADER_LENGTH + i * IndexFileLayout.RECORD_LENGTH));
      if (segment >= 0 && segment < segmentCount) {
        perSegment[segment]++;
      }
    }
    for (int s = 0; s < segmentCount; s++) {
      if (perSegment[s] > 0) {
        counts.expect(s, perSegment[s]);
      }
    }
    file.position(IndexFileLayout.HEADER_LENGTH);
    for (long i = 0; i < count; i++) {
      sink.visit(file.getInt(), file.getLong(), file.getLong());
    }
    return new Result(Status.RESTORED, "restored " + count + " records", count);
  }

  /**
   * Whether {@code path} holds a whole checkpoint (magic, version, lengths and CRC32C check out) written by the
   * configuration whose fingerprint is {@code configFingerprint}. The fingerprint covers the engine spec, so such a
   * checkpoint proves that a cache of this library used the spec's files. Never throws: a missing or unreadable file
   * proves nothing.
   */
  public static boolean writtenBy(Path path, long configFingerprint) {
    Object loaded = load(path);
    return loaded instanceof ByteBuffer file && file.getLong(IndexFileLayout.CONFIG_OFFSET) == configFingerprint;
  }

  /** The checkpoint at {@code path} once its framing and CRC32C check out, or the {@link Result} that says why not. */
  private static Object load(Path path) {
    ByteBuffer file;
    try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
      long size = ch.size();
      if (size < IndexFileLayout.fileLength(0) || size > MAX_FILE_LENGTH) {
        return corrupt("length " + size + " outside [" + IndexFileLayout.fileLength(0) + ", " + MAX_FILE_LENGTH + "]");
      }
      file = ByteBuffer.allocate((int) size);
      while (file.hasRemaining()) {
        if (ch.read(file) < 0) {
          return corrupt("file shrank while reading");
        }
      }
      file.flip();
    } catch (NoSuchFileException e) {
      return new Result(Status.MISSING, "no checkpoint at " + path, 0);
    } catch (IOException e) {
      return corrupt("read failed: " + e);
    }
    int size = file.limit();
    if (file.getInt(IndexFileLayout.MAGIC_OFFSET) != IndexFileLayout.MAGIC) {
      return corrupt("bad magic");
    }
    int version = file.getInt(IndexFileLayout.VERSION_OFFSET);
    if (version != IndexFileLayout.VERSION) {
      return corrupt("version " + version + ", expected " + IndexFileLayout.VERSION);
    }
    int body = size - IndexFileLayout.HEADER_LENGTH - IndexFileLayout.TRAILER_LENGTH;
    if (body % IndexFileLayout.RECORD_LENGTH != 0) {
      return corrupt("length " + size + " is not a whole number of records");
    }
    long count = file.getLong(size - IndexFileLayout.TRAILER_LENGTH);
    if (count != body / IndexFileLayout.RECORD_LENGTH) {
      return corrupt("entry count " + count + " does not match the file length " + size);
    }
    CRC32C crc = new CRC32C();
    crc.update(file.duplicate().limit(size - 4));
    if ((int) crc.getValue() != file.getInt(size - 4)) {
      return corrupt("CRC32C mismatch");
    }
    return file;
  }

  private static Result corrupt(String reason) {
    return new Result(Status.CORRUPT, reason, 0);
  }
}
