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

  /**
   * Largest checkpoint accepted: 2^31 records (40 GiB), above the index of 8 TiB of slots of 8 KiB blocks (2^30
   * entries). The reader streams, so the bound guards against a length field gone wild, not memory.
   */
  static final long MAX_FILE_LENGTH = IndexFileLayout.fileLength(1L << 31);
  /** Bytes read per call: a whole number of records, about a megabyte, reused (a restore's heap is this). */
  private static final int CHUNK = IndexFileLayout.RECORD_LENGTH * 52_429;

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
   *
   * <p>Two streaming passes over one open file (a checkpoint is replaced by a rename, never rewritten in place, so
   * both passes read the same bytes): the first checks framing and CRC32C and counts records per segment, the
   * second hands the records out. Heap: one chunk and one count per segment, whatever the checkpoint's size.
   */
  public Result read(Path path, int segmentCount, SegmentCounts counts, EntryVisitor sink) {
    try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
      Object checked = check(ch, segmentCount);
      if (checked instanceof Result refused) {
        return refused;
      }
      Checked file = (Checked) checked;
      if (file.fingerprint != configFingerprint || file.segments != segmentCount) {
        return new Result(Status.CONFIG_MISMATCH, "written by another configuration (fingerprint "
            + Long.toHexString(file.fingerprint) + ", " + file.segments + " segments; this cache: "
            + Long.toHexString(configFingerprint) + ", " + segmentCount + " segments)", 0);
      }
      for (int s = 0; s < segmentCount; s++) {
        if (file.perSegment[s] > 0) {
          counts.expect(s, file.perSegment[s]);
        }
      }
      ByteBuffer chunk = ByteBuffer.allocate(CHUNK);
      long end = IndexFileLayout.fileLength(file.count) - IndexFileLayout.TRAILER_LENGTH;
      for (long at = IndexFileLayout.HEADER_LENGTH; at < end; at += chunk.limit()) {
        readFully(ch, chunk.clear().limit((int) Math.min(CHUNK, end - at)), at);
        chunk.flip();
        while (chunk.hasRemaining()) {
          sink.visit(chunk.getInt(), chunk.getLong(), chunk.getLong());
        }
      }
      return new Result(Status.RESTORED, "restored " + file.count + " records", file.count);
    } catch (NoSuchFileException e) {
      return new Result(Status.MISSING, "no checkpoint at " + path, 0);
    } catch (IOException e) {
      return corrupt("read failed: " + e);
    }
  }

  /**
   * Whether {@code path} holds a whole checkpoint (magic, version, lengths and CRC32C check out) written by the
   * configuration whose fingerprint is {@code configFingerprint}. The fingerprint covers the engine spec, so such a
   * checkpoint proves that a cache of this library used the spec's files. Never throws: a missing or unreadable file
   * proves nothing.
   */
  public static boolean writtenBy(Path path, long configFingerprint) {
    try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
      return check(ch, 0) instanceof Checked file && file.fingerprint == configFingerprint;
    } catch (IOException e) {
      return false;
    }
  }

  /** A checkpoint whose framing and CRC32C check out: its header fields, count and records per segment. */
  private static final class Checked {
    final long fingerprint;
    final int segments;
    final long count;
    /** Records per segment; empty when the file's segment count is not the one asked for. */
    final int[] perSegment;

    Checked(long fingerprint, int segments, long count, int[] perSegment) {
      this.fingerprint = fingerprint;
      this.segments = segments;
      this.count = count;
      this.perSegment = perSegment;
    }
  }

  /**
   * {@link Checked} once the framing and CRC32C of the file on {@code ch} check out (records per segment counted
   * when the file has {@code segmentCount} segments), or the {@link Result} that says why not.
   */
  private static Object check(FileChannel ch, int segmentCount) throws IOException {
    long size = ch.size();
    if (size < IndexFileLayout.fileLength(0) || size > MAX_FILE_LENGTH) {
      return corrupt("length " + size + " outside [" + IndexFileLayout.fileLength(0) + ", " + MAX_FILE_LENGTH + "]");
    }
    ByteBuffer header = ByteBuffer.allocate(IndexFileLayout.HEADER_LENGTH);
    readFully(ch, header, 0);
    if (header.getInt(IndexFileLayout.MAGIC_OFFSET) != IndexFileLayout.MAGIC) {
      return corrupt("bad magic");
    }
    int version = header.getInt(IndexFileLayout.VERSION_OFFSET);
    if (version != IndexFileLayout.VERSION) {
      return corrupt("version " + version + ", expected " + IndexFileLayout.VERSION);
    }
    long body = size - IndexFileLayout.HEADER_LENGTH - IndexFileLayout.TRAILER_LENGTH;
    if (body % IndexFileLayout.RECORD_LENGTH != 0) {
      return corrupt("length " + size + " is not a whole number of records");
    }
    ByteBuffer trailer = ByteBuffer.allocate(IndexFileLayout.TRAILER_LENGTH);
    readFully(ch, trailer, size - IndexFileLayout.TRAILER_LENGTH);
    long count = trailer.getLong(0);
    if (count != body / IndexFileLayout.RECORD_LENGTH) {
      return corrupt("entry count " + count + " does not match the file length " + size);
    }
    int segments = header.getInt(IndexFileLayout.SEGMENTS_OFFSET);
    int[] perSegment = new int[segments == segmentCount ? segmentCount : 0];
    CRC32C crc = new CRC32C();
    crc.update(header.duplicate().clear());
    ByteBuffer chunk = ByteBuffer.allocate(CHUNK);
    long end = size - IndexFileLayout.TRAILER_LENGTH;
    for (long at = IndexFileLayout.HEADER_LENGTH; at < end; at += chunk.limit()) {
      readFully(ch, chunk.clear().limit((int) Math.min(CHUNK, end - at)), at);
      chunk.flip();
      crc.update(chunk.duplicate());
      for (int r = 0; perSegment.length > 0 && r < chunk.limit(); r += IndexFileLayout.RECORD_LENGTH) {
        int segment = chunk.getInt(r);
        if (segment >= 0 && segment < segmentCount) {
          perSegment[segment]++;
        }
      }
    }
    crc.update(trailer.duplicate().clear().limit(8));
    if ((int) crc.getValue() != trailer.getInt(8)) {
      return corrupt("CRC32C mismatch");
    }
    return new Checked(header.getLong(IndexFileLayout.CONFIG_OFFSET), segments, count, perSegment);
  }

  /** Fills {@code buf} (position to limit) from {@code at}; a file that ends first is an {@link IOException}. */
  private static void readFully(FileChannel ch, ByteBuffer buf, long at) throws IOException {
    long pos = at;
    while (buf.hasRemaining()) {
      int n = ch.read(buf, pos);
      if (n < 0) {
        throw new IOException("checkpoint shrank while reading");
      }
      pos += n;
    }
  }

  private static Result corrupt(String reason) {
    return new Result(Status.CORRUPT, reason, 0);
  }
}
