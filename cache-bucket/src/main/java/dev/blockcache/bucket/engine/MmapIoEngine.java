package dev.blockcache.bucket.engine;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code mmap:/path}: slots in a memory-mapped file. Reads copy the slot into a pooled direct buffer (so every read is
 * verified like a file read, and no view outlives the mapping); writes copy into the mapping; {@link #sync()} forces
 * the mapping to the file.
 *
 * <h2>Design notes</h2>
 * The file is mapped in chunks of whole segments up to 1 GiB (a {@link MappedByteBuffer} holds at most 2 GiB, and
 * fewer, larger maps stay far below {@code vm.max_map_count}); a slot never straddles segments, so never chunks.
 * Mappings are not unmapped explicitly on close (Java 17 has no safe unmap; touching an unmapped buffer crashes the
 * JVM): the channel and its lock are released at close, the address space when the GC collects the buffers.
 *
 * <p><b>Faults.</b> A page the file system cannot back (the file was truncated under the mapping, or a hole could not
 * be allocated on a full file system) raises SIGBUS, which the JVM turns into an {@link InternalError} thrown by the
 * thread at a later point ({@link UnsafeFaultFence} makes that point the end of the copy). Reads, writes and syncs
 * turn it into an {@link IOException}, so a fault is counted and tolerated like any other engine's IO error: never
 * thrown to a reader, never fatal to a writer thread. (The files this library creates are written in full at start,
 * so a hole needs someone else's doing.)
 *
 * <p>Thread-safety: as {@link IoEngine}; mapped buffers are accessed only through absolute-index methods on
 * duplicates, never through a shared position.
 */
public final class MmapIoEngine extends IoEngine {
  public static final String SCHEME = "mmap";
  /** Largest mapping: 1 GiB, half of what one MappedByteBuffer can hold. */
  private static final long MAX_CHUNK = 1L << 30;

  private final CacheFiles.OpenFile file;
  private final MappedByteBuffer[] chunks;
  private final long chunkSize;

  private MmapIoEngine(String spec, long capacity, int segmentSize, CacheFiles.OpenFile file,
      MappedByteBuffer[] chunks, long chunkSize) {
    super(spec, capacity, segmentSize);
    this.file = file;
    this.chunks = chunks;
    this.chunkSize = chunkSize;
  }

  /**
   * Opens, locks, preallocates and maps the file of {@code spec}; the caller owns the engine and closes it.
   *
   * @throws dev.blockcache.config.ConfigException if the path is invalid, unwritable, locked or lacks space, or
   *     O_DIRECT is asked for
   */
  public static MmapIoEngine open(String spec, long capacity, int segmentSize, FileEngineOptions options)
      throws IOException {
    if (options.directIo()) {
      throw CacheFiles.bad(spec, "file: or files: with O_DIRECT (a memory map always uses the page cache)");
    }
    List<Path> paths = CacheFiles.parsePaths(spec);
    if (paths.size() != 1) {
      throw CacheFiles.bad(spec, "one path after mmap:");
    }
    long chunkSize = Math.max(1, MAX_CHUNK / segmentSize) * segmentSize;
    CacheFiles.OpenFile file = CacheFiles.open(spec, paths.get(0), capacity, PageCache.USED);
    try {
      int count = (int) ((capacity + chunkSize - 1) / chunkSize);
      MappedByteBuffer[] chunks = new MappedByteBuffer[count];
      for (int i = 0; i < count; i++) {
        long at = i * chunkSize;
        chunks[i] = file.channel().map(FileChannel.MapMode.READ_WRITE, CacheFileHeader.LENGTH + at,
            Math.min(chunkSize, capacity - at));
      }
      return new MmapIoEngine(spec, capacity, segmentSize, file, chunks, chunkSize);
    } catch (IOException | RuntimeException e) {
      file.close();
      throw e;
    }
  }

  /** Bytes on disk of the file of an engine of {@code capacity} bytes: its {@link CacheFileHeader} and the slots. */
  public static long fileSize(long capacity) {
    return CacheFileHeader.LENGTH + capacity;
  }

  @Override
  public boolean isMemory() {
    return false;
  }

  @Override
  public boolean isPersistent() {
    return true;
  }

  /** A pooled direct buffer the caller of {@link IoEngine#read} owns and releases. */
  @Override
  protected ByteBuf allocateReadBuffer(int length) {
    return PooledByteBufAllocator.DEFAULT.directBuffer(length, length);
  }

  @Override
  protected void readImpl(long offset, ByteBuf dst, int length) throws IOException {
    try {
      copyOut(offset, dst, length);
      UnsafeFaultFence.deliverPendingFault();
    } catch (InternalError e) {
      throw fault("read", offset, length, e);
    }
  }

  private void copyOut(long offset, ByteBuf dst, int length) {
    int done = 0;
    while (done < length) {
      long at = offset + done;
      int index = (int) (at % chunkSize);
      MappedByteBuffer chunk = chunks[(int) (at / chunkSize)];
      int n = Math.min(length - done, chunk.capacity() - index);
      dst.writeBytes(chunk.duplicate().position(index).limit(index + n));
      done += n;
    }
  }

  @Override
  protected void writeImpl(long offset, ByteBuf src, int srcIndex, int length) throws IOException {
    try {
      copyIn(offset, src, srcIndex, length);
      UnsafeFaultFence.deliverPendingFault();
    } catch (InternalError e) {
      throw fault("write", offset, length, e);
    }
  }

  /**
   * The IO error a fault on the mapping is: the JVM turns the SIGBUS of a page the file system cannot back (the
   * file was truncated under the mapping, or a hole could not be allocated on a full file system) into an
   * {@link InternalError}, which {@link UnsafeFaultFence} delivers at the end of the copy that touched the page.
   */
  private IOException fault(String op, long offset, int length, InternalError e) {
    return new IOException(spec() + ": " + op + " of " + length + " bytes at offset " + offset + " faulted on the"
        + " memory map of " + file.path() + " (file truncated or file system full): " + e.getMessage(), e);
  }

  private void copyIn(long offset, ByteBuf src, int srcIndex, int length) {
    int done = 0;
    while (done < length) {
      long at = offset + done;
      int index = (int) (at % chunkSize);
      MappedByteBuffer chunk = chunks[(int) (at / chunkSize)];
      int n = Math.min(length - done, chunk.capacity() - index);
      src.getBytes(srcIndex + done, chunk.duplicate().position(index).limit(index + n));
      done += n;
    }
  }

  @Override
  protected void syncImpl() throws IOException {
    try {
      for (MappedByteBuffer chunk : chunks) {
        chunk.force();
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    } catch (InternalError e) {
      throw fault("sync", 0, 0, e);
    }
  }

  @Override
  protected void closeImpl() {
    file.close();
  }

  public Path path() {
    return file.path();
  }
}
