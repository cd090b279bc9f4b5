package dev.blockcache.bucket.engine;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code file:/path} and {@code files:/a,/b}: slots in one file, or striped over several (e.g. one per device),
 * read and written with positional channel calls, optionally with O_DIRECT.
 *
 * <h2>Design notes</h2>
 * <b>Striping.</b> Engine segment {@code s} lives in file {@code s % n} at file offset
 * {@code (s / n) * segmentSize} after the file's {@link CacheFileHeader}; a slot never straddles segments, so each
 * slot read is one positional read of one file. The files hold exactly the engine's capacity between them (each
 * rounded up to 4096 with O_DIRECT), so disk use is the capacity plus one 4 KiB header per file.
 *
 * <p><b>O_DIRECT.</b> Slots are 256-byte multiples, not 4096, so a slot's range is widened to the aligned pages
 * covering it. A read reads those pages into an aligned pooled buffer and copies the slot's bytes out (the copy is a
 * few µs against tens of µs of device time). A write is a read-modify-write: the partial first and last pages are
 * read back, the slot's bytes laid over them, and the whole aligned range written. Two writers of adjacent slots can
 * share an edge page, so partial edge pages are written under a lock striped by (file, page); readers take no lock
 * (the bytes outside the writer's slot are written back unchanged).
 *
 * <p><b>Buffers.</b> Reads fill pooled direct buffers from netty's {@link PooledByteBufAllocator}; the caller owns
 * and releases them. On failure {@link IoEngine#read} releases the buffer before throwing.
 *
 * <p>Thread-safety: as {@link IoEngine}; positional channel calls are safe from any thread, and the page-lock
 * stripes serialise only read-modify-writes of the same edge page.
 */
public final class FileIoEngine extends IoEngine {
  public static final String SCHEME = "file";
  public static final String STRIPED_SCHEME = "files";
  /** Lock stripes for O_DIRECT edge pages: enough that 3 writers rarely meet on an unrelated page. */
  private static final int PAGE_LOCK_STRIPES = 64;

  private final CacheFiles.OpenFile[] files;
  private final ChannelIo io;
  private final boolean directIo;
  private final Object[] pageLocks = new Object[PAGE_LOCK_STRIPES];

  private FileIoEngine(String spec, long capacity, int segmentSize, CacheFiles.OpenFile[] files,
      FileEngineOptions options) {
    super(spec, capacity, segmentSize);
    this.files = files;
    this.io = options.io();
    this.directIo = options.directIo();
    for (int i = 0; i < pageLocks.length; i++) {
      pageLocks[i] = new Object();
    }
  }

  /**
   * Opens, locks and preallocates the files of {@code spec} ({@code file:/p} or {@code files:/p1,/p2}); the caller
   * owns the engine and closes it.
   *
   * @throws dev.blockcache.config.ConfigException if a path is invalid, unwritable, locked or lacks space
   */
  public static FileIoEngine open(String spec, long capacity, int segmentSize, FileEngineOptions options)
      throws IOException {
    List<Path> paths = paths(spec);
    CacheFiles.OpenFile[] files = new CacheFiles.OpenFile[paths.size()];
    try {
      for (int i = 0; i < files.length; i++) {
        long dataSize = dataSize(capacity, segmentSize, files.length, i, options.pageCache());
        files[i] = CacheFiles.open(spec, paths.get(i), dataSize, options.pageCache());
      }
    } catch (IOException | RuntimeException e) {
      closeAll(files);
      throw e;
    }
    return new FileIoEngine(spec, capacity, segmentSize, files, options);
  }

  /**
   * The files of a {@code file:} or {@code files:} spec, in stripe order, checked as {@link #open} checks them; also
   * the file of an {@code mmap:} spec (whose single-path rule {@code MmapIoEngine} checks at open).
   *
   * @throws dev.blockcache.config.ConfigException naming the key and the value when a path is not accepted
   */
  public static List<Path> paths(String spec) {
    List<Path> paths = CacheFiles.parsePaths(spec);
    if (spec.regionMatches(true, 0, SCHEME + ":", 0, SCHEME.length() + 1) && paths.size() != 1) {
      throw CacheFiles.bad(spec, "one path after file: (use files:/a,/b to stripe over several)");
    }
    return paths;
  }

  /**
   * Whether the cache file at {@code path} exists but its {@link CacheFileHeader} was damaged: truncated (to zero or
   * into the header) or overwritten at its start. {@link #open} and {@code MmapIoEngine.open} refuse such a file, as
   * they refuse any file without our marker; only proof from elsewhere that the file is ours (a checkpoint) lets the
   * cache start cold over it.
   */
  public static boolean headerDamaged(Path path) {
    return CacheFiles.headerDamaged(path);
  }

  /**
   * Bytes on disk of the largest of {@code files} files of an engine of {@code capacity} bytes in segments of
   * {@code segmentSize}: its {@link CacheFileHeader} and its slot bytes ({@link #dataSize}). The first file is the
   * largest.
   */
  public static long fileSize(long capacity, int segmentSize, int files, PageCache pageCache) {
    return CacheFileHeader.LENGTH + dataSize(capacity, segmentSize, files, 0, pageCache);
  }

  /**
   * Slot bytes of file {@code file} of {@code files}: up to the end of the last engine byte it holds, so the files
   * together hold exactly {@code capacity} bytes (each rounded up to the O_DIRECT alignment when the page cache is {@link PageCache#BYPASSED bypassed}).
   */
  static long dataSize(long capacity, int segmentSize, int files, int file, PageCache pageCache) {
    long segments = (capacity + segmentSize - 1) / segmentSize;
    long own = segments / files + (file < segments % files ? 1 : 0);
    if (own == 0) {
      return 0;
    }
    long last = file + (own - 1) * files;
    long size = (own - 1) * segmentSize + Math.min(segmentSize, capacity - last * segmentSize);
    return pageCache == PageCache.BYPASSED ? DirectIo.alignUp(size) : size;
  }

  @Override
  public boolean isMemory() {
    return false;
  }

  @Override
  public boolean isPersistent() {
    return true;
  }

  /** The files, in stripe order. */
  public List<Path> paths() {
    Path[] paths = new Path[files.length];
    for (int i = 0; i < files.length; i++) {
      paths[i] = files[i].path();
    }
    return List.of(paths);
  }

  public boolean directIo() {
    return directIo;
  }

  /** A pooled direct buffer the caller of {@link IoEngine#read} owns and releases. */
  @Override
  protected ByteBuf allocateReadBuffer(int length) {
    return PooledByteBufAllocator.DEFAULT.directBuffer(length, length);
  }

  @Override
  protected void readImpl(long offset, ByteBuf dst, int length) throws IOException {
    int done = 0;
    while (done < length) {
      long at = offset + done;
      int n = (int) Math.min(length - done, segmentSize() - at % segmentSize());
      int file = file(at);
      if (directIo) {
        readAligned(file, fileOffset(at), dst, n);
      } else {
        // dst is this read's own buffer, used by this thread only: its internal NIO view saves an allocation.
        ByteBuffer target = dst.internalNioBuffer(dst.writerIndex(), n);
        readFully(file, target, fileOffset(at));
        dst.writerIndex(dst.writerIndex() + n);
      }
      done += n;
    }
  }

  @Override
  protected void writeImpl(long offset, ByteBuf src, int srcIndex, int length) throws IOException {
    int done = 0;
    while (done < length) {
      long at = offset + done;
      int n = (int) Math.min(length - done, segmentSize() - at % segmentSize());
      if (directIo) {
        writeAligned(file(at), fileOffset(at), src, srcIndex + done, n);
      } else {
        writeFully(file(at), src.nioBuffer(srcIndex + done, n), fileOffset(at));
      }
      done += n;
    }
  }

  private int file(long offset) {
    return (int) ((offset / segmentSize()) % files.length);
  }

  /** Where engine byte {@code offset} lives in its file: after the header, in the file's own segments. */
  private long fileOffset(long offset) {
    long segment = offset / segmentSize();
    return CacheFileHeader.LENGTH + (segment / files.length) * segmentSize() + offset % segmentSize();
  }

  /** Reads the aligned pages covering {@code [position, +n)} into a scratch buffer and appends the range to dst. */
  private void readAligned(int file, long position, ByteBuf dst, int n) throws IOException {
    long start = DirectIo.alignDown(position);
    int span = (int) (DirectIo.alignUp(position + n) - start);
    ByteBuf pages = DirectIo.alignedBuffer(span);
    try {
      readFully(file, pages.nioBuffer(0, span), start);
      dst.writeBytes(pages, (int) (position - start), n);
    } finally {
      pages.release();
    }
  }

  /** Read-modify-write of the aligned pages covering {@code [position, +n)}; see the class notes. */
  private void writeAligned(int file, long position, ByteBuf src, int srcIndex, int n) throws IOException {
    AlignedPages span = AlignedPages.covering(position, n);
    int a = span.headPartial() ? pageStripe(file, span.start()) : -1;
    int b = span.tailPartial() ? pageStripe(file, span.lastPageStart()) : -1;
    // Locks are taken in ascending stripe order, so two writers never wait for each other in a cycle.
    int low = Math.min(a, b);
    int high = Math.max(a, b);
    Object first = high < 0 ? null : pageLocks[low >= 0 ? low : high];
    Object last = low >= 0 && low != high ? pageLocks[high] : null;
    ByteBuf pages = DirectIo.alignedBuffer(span.length());
    try {
      if (first == null) {
        fillAndWrite(file, span, pages, position, src, srcIndex, n); // whole pages only: nothing to read first
      } else {
        synchronized (first) {
          if (last == null) {
            fillAndWrite(file, span, pages, position, src, srcIndex, n);
          } else {
            synchronized (last) {
              fillAndWrite(file, span, pages, position, src, srcIndex, n);
            }
          }
        }
      }
    } finally {
      pages.release();
    }
  }

  /**
   * Reads the partial first and last pages of {@code span} into {@code pages}, copies {@code [srcIndex, +n)} of
   * {@code src} over them at {@code position}, and writes the whole span. The caller holds the locks of the partial
   * pages and keeps ownership of both buffers.
   */
  private void fillAndWrite(int file, AlignedPages span, ByteBuf pages, long position, ByteBuf src, int srcIndex,
      int n) throws IOException {
    int page = DirectIo.ALIGNMENT;
    if (span.headPartial()) {
      readFully(file, pages.nioBuffer(0, page), span.start());
    }
    if (span.tailPartial() && !(span.headPartial() && span.length() == page)) {
      readFully(file, pages.nioBuffer(span.length() - page, page), span.lastPageStart());
    }
    pages.setBytes((int) (position - span.start()), src, srcIndex, n);
    writeFully(file, pages.nioBuffer(0, span.length()), span.start());
  }

  /**
   * The {@link DirectIo#ALIGNMENT}-aligned pages covering a byte range: where they start, how many bytes they span,
   * and whether the range leaves part of the first or last page untouched (those pages must be read before a write).
   */
  private record AlignedPages(long start, int length, boolean headPartial, boolean tailPartial) {
    static AlignedPages covering(long position, int n) {
      long start = DirectIo.alignDown(position);
      long end = DirectIo.alignUp(position + n);
      return new AlignedPages(start, (int) (end - start), position != start, position + n != end);
    }

    long lastPageStart() {
      return start + length - DirectIo.ALIGNMENT;
    }
  }

  private static int pageStripe(int file, long pageStart) {
    long page = pageStart / DirectIo.ALIGNMENT;
    int hash = Long.hashCode(page * 0x9E3779B97F4A7C15L + file);
    return Math.floorMod(hash, PAGE_LOCK_STRIPES);
  }

  private void readFully(int file, ByteBuffer target, long position) throws IOException {
    long at = position;
    while (target.hasRemaining()) {
      int n = io.read(files[file].channel(), target, at);
      if (n <= 0) {
        throw new IOException(spec() + ": short read of " + files[file].path() + " at " + at + ": " + n
            + " bytes with " + target.remaining() + " to go");
      }
      at += n;
    }
  }

  private void writeFully(int file, ByteBuffer source, long position) throws IOException {
    long at = position;
    while (source.hasRemaining()) {
      int n = io.write(files[file].channel(), source, at);
      if (n <= 0) {
        throw new IOException(spec() + ": write of " + files[file].path() + " at " + at + " made no progress");
      }
      at += n;
    }
  }

  @Override
  protected void syncImpl() throws IOException {
    for (CacheFiles.OpenFile f : files) {
      f.channel().force(false);
    }
  }

  @Override
  protected void closeImpl() {
    closeAll(files);
  }

  private static void closeAll(CacheFiles.OpenFile[] files) {
    for (CacheFiles.OpenFile f : files) {
      if (f != null) {
        f.close();
      }
    }
  }
}
