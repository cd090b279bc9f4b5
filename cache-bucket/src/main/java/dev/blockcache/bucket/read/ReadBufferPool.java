package dev.blockcache.bucket.read;

import dev.blockcache.bucket.alloc.BucketAllocator;
import dev.blockcache.buffer.ViewOwner;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The direct buffers that gets on a file engine read slots into, kept for reuse: a get takes one, reads header and
 * block into it, and hands the block out as a {@link dev.blockcache.buffer.BlockBuf} view whose last release gives
 * the buffer back. A buffer is reused only after that release, so no reader ever sees another read's bytes.
 *
 * <h2>Why not a fresh pooled buffer per get</h2>
 * Measured on the 4 KiB file get: allocating and freeing a netty pooled buffer per read, its leak-detector sampling
 * at netty's default level (a stack trace one read in 128) and the NIO views a new buffer needs made about a third
 * of the Java time of a get and 279 bytes of garbage. A kept buffer keeps its NIO view, and each view is tracked by
 * the leak detector at {@code ADVANCED} and {@code PARANOID} like a memory engine's views.
 *
 * <h2>Bounds</h2>
 * One shelf per bucket size class, each buffer as large as the class's item. A shelf keeps at most
 * {@code max(1, min(2 x processors, 512 KiB / itemSize))} idle buffers; a buffer given back to a full shelf is
 * released to netty's allocator, so idle memory stays under about 512 KiB per class (one item for larger classes)
 * however many gets ran at once. Buffers come from netty's {@link PooledByteBufAllocator}.
 *
 * <p>Thread-safety: thread-safe and lock-free. A shelf is an array of slots claimed and filled by CAS; {@link #close}
 * releases idle buffers and makes later give-backs release theirs.
 */
public final class ReadBufferPool {
  /** Idle bytes one shelf aims to stay under. */
  static final int SHELF_BYTES = 512 * 1024;

  private final BucketAllocator allocator;
  private final AtomicReferenceArray<ReadBuffer>[] shelves;
  private volatile boolean closed;

  /** A pool for the slots of {@code allocator}'s size classes. */
  @SuppressWarnings({"unchecked", "rawtypes"}) // an array of a generic type
  public ReadBufferPool(BucketAllocator allocator) {
    this.allocator = allocator;
    this.shelves = new AtomicReferenceArray[allocator.sizeClassCount()];
    for (int c = 0; c < shelves.length; c++) {
      shelves[c] = new AtomicReferenceArray<>(shelfCapacity(allocator.itemSize(c)));
    }
  }

  /** Idle buffers a shelf of {@code itemSize}-byte buffers keeps at most. */
  static int shelfCapacity(int itemSize) {
    int perCore = 2 * Runtime.getRuntime().availableProcessors();
    return Math.max(1, Math.min(perCore, SHELF_BYTES / itemSize));
  }

  /**
   * An empty buffer with room for {@code length} bytes, owned by the caller until it hands it out as a view (whose
   * release gives it back) or calls {@link #giveBack}.
   */
  ReadBuffer take(int length) {
    int c = allocator.sizeClassOf(length);
    if (c < 0) {
      throw new IllegalArgumentException("read of " + length + " bytes is larger than the largest item, "
          + allocator.maxItemSize());
    }
    AtomicReferenceArray<ReadBuffer> shelf = shelves[c];
    for (int i = 0; i < shelf.length(); i++) {
      ReadBuffer b = shelf.get(i);
      if (b != null && shelf.compareAndSet(i, b, null)) {
        b.buffer.clear();
        return b;
      }
    }
    int size = allocator.itemSize(c);
    return new ReadBuffer(PooledByteBufAllocator.DEFAULT.directBuffer(size, size), c);
  }

  /** Returns {@code b}, which nobody may use afterwards, to its shelf, or to netty's allocator if the shelf is full. */
  void giveBack(ReadBuffer b) {
    if (!closed) {
      AtomicReferenceArray<ReadBuffer> shelf = shelves[b.sizeClass];
      for (int i = 0; i < shelf.length(); i++) {
        if (shelf.get(i) == null && shelf.compareAndSet(i, null, b)) {
          if (closed && shelf.compareAndSet(i, b, null)) {
            break; // close() may have swept this shelf already: release it here instead
          }
          return;
        }
      }
    }
    b.buffer.release();
  }

  /** Releases every idle buffer; buffers still handed out are released when they are given back. Idempotent. */
  void close() {
    closed = true;
    for (AtomicReferenceArray<ReadBuffer> shelf : shelves) {
      for (int i = 0; i < shelf.length(); i++) {
        ReadBuffer b = shelf.getAndSet(i, null);
        if (b != null) {
          b.buffer.release();
        }
      }
    }
  }

  /** Idle buffers on all shelves (for tests and metrics). */
  int idleBuffers() {
    int n = 0;
    for (AtomicReferenceArray<ReadBuffer> shelf : shelves) {
      for (int i = 0; i < shelf.length(); i++) {
        if (shelf.get(i) != null) {
          n++;
        }
      }
    }
    return n;
  }

  /**
   * One kept buffer and the shelf it returns to; as the {@link ViewOwner} of the view handed out over it, the view's
   * last release gives it back. Reused for as long as it stays on its shelf, so a get allocates only its view.
   */
  final class ReadBuffer implements ViewOwner {
    private final ByteBuf buffer;
    private final int sizeClass;

    private ReadBuffer(ByteBuf buffer, int sizeClass) {
      this.buffer = buffer;
      this.sizeClass = sizeClass;
    }

    /** The buffer, empty when taken; valid until given back. */
    ByteBuf buffer() {
      return buffer;
    }

    @Override
    public void viewReleased(long token) {
      giveBack(this);
    }
  }
}
