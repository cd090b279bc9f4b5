package dev.blockcache.l1.lru;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.blockcache.api.BlockCache;
import dev.blockcache.api.BlockFile;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.BlockReader;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CachePriority;
import dev.blockcache.api.CacheResult;
import dev.blockcache.api.CacheStats;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.buffer.HeapBlock;
import dev.blockcache.config.LruConfig;
import dev.blockcache.l1.Arguments;
import dev.blockcache.l1.ChainedBlock;
import dev.blockcache.l1.FileChains;
import dev.blockcache.l1.Insert;
import dev.blockcache.policy.PriorityEvictionPlanner;
import dev.blockcache.stats.StatsRecorder;
import io.netty.buffer.ByteBuf;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;

/**
 * An on-heap block cache with HBase's LruBlockCache semantics: single, multi and memory priorities with configurable
 * shares, eviction from the acceptable size down to the minimum size, a hard capacity limit, a maximum block size
 * and in-memory force mode, under HBase's configuration keys ({@link LruConfig}).
 *
 * <h2>Design</h2>
 * <ul>
 *   <li><b>Lookup</b> is a probe of an open-addressing {@link EntryTable} (a tag and an entry reference per slot,
 *       so that a hit loads the slot, the entry, then the key and the bytes, with no map node between) plus one write
 *       of the entry's reference bit when it is not already set: a hit takes no lock and touches no counter shared by
 *       all readers (HBase bumps a global atomic access counter on every hit). The block is returned as a fresh
 *       {@code BlockBuf} view of the heap copy.</li>
 *   <li><b>Recency</b> is approximated with CLOCK, one intrusive FIFO per priority ({@link ClockList}). A hit on a
 *       single-access block promotes it to multi with a CAS of its state ({@link PrioritySizes} moves its bytes) and
 *       offers it to {@link Promotions}, a small lock-free ring; the next insert or eviction pass (which hold the
 *       list lock anyway) moves the promoted entries, in promotion order, to the multi list's tail with their bit
 *       cleared: where HBase's access-time order puts a block promoted then. Later hits only set the bit, so the
 *       compiled get stays under HotSpot's {@code InlineSmallCode} and callers inline it (their key and the view are
 *       then not allocated). A promotion the ring lost (full, or a raced claim) is moved when a pass meets it in the
 *       single list, or, when the multi list runs out first, in one walk of the single list. In the multi and memory
 *       lists a referenced entry gets a second chance (bit cleared, moved to the tail), which is what LRU order would
 *       have kept.</li>
 *   <li><b>Eviction</b> runs when the accounted size passes {@code acceptableFactor × capacity} and frees down to
 *       {@code minFactor × capacity}; {@link PriorityEvictionPlanner} splits the bytes to free between priorities,
 *       {@link PriorityLists} picks the entries.
 *       A pass walks list heads (plus that one walk), so it costs the blocks it evicts and the second chances earlier
 *       hits paid for, never a sort of the whole map as HBase's does. Passes run on the background thread started
 *       by {@link #start()}, or on the inserting thread when the cache was not started; {@link #runEviction()} runs
 *       one now (for tests and operators).</li>
 *   <li><b>Admission</b> refuses blocks larger than the maximum block size, and any block that would take the cache
 *       past {@code hardCapacityLimitFactor × acceptableFactor × capacity} while the background evictor lags (as
 *       HBase does). When nothing is lagging (an unstarted cache, or one whose acceptable size leaves no room for one
 *       more block) the inserting thread first evicts enough for the block.</li>
 *   <li><b>Inserts</b>: {@link #cacheBlock} copies the block onto the heap; {@link #handOver} keeps the caller's heap
 *       array when it can ({@link HeapBlock#keepOrCopy}), as HBase keeps the reference to an on-heap block. Caching a
 *       present key keeps the present block and counts as an access for the policy.</li>
 *   <li><b>Evict by file</b> walks the file's chain of entries ({@link FileChains}, linked through the entries
 *       themselves), so it costs that file's blocks.</li>
 *   <li><b>Memory</b>: an entry is one object, the {@link HeapBlock} subclass {@link LruEntry} (64 bytes with the
 *       key's file and offset inline and its list and file-chain links; no key object is kept), beside its table
 *       slots and its array.</li>
 * </ul>
 * Sizes are accounted as block bytes plus {@link HeapBlock#LRU_ENTRY_OVERHEAD} per entry.
 *
 * <p>Thread-safety: safe for concurrent use. Gets are lock-free; inserts, removals and eviction passes write the
 * table and link and unlink entries under one list lock ({@link ListLock}), which gets never take and which a pass
 * opens every few evictions to an insert spinning for it. Accounting ({@link LruAccounts}) is atomic and done
 * outside the lock; no other lock is taken while it is held.
 */
public final class LruBlockCache implements BlockCache {
  private final LruConfig config;
  private final long acceptableSize;
  private final long minSize;
  private final long hardLimit;
  /** The index; written under listLock, read without it. */
  private final EntryTable table;
  private final StatsRecorder stats = new StatsRecorder();
  private final LruAccounts accounts = new LruAccounts();
  private final ListLock listLock = new ListLock();
  /** Entries promoted by gets whose links have not moved to the multi list yet. */
  private final Promotions promotions = new Promotions();
  /** One list per priority and the order a pass takes their entries in. Guarded by listLock. */
  @GuardedBy("listLock")
  private final PriorityLists lists = new PriorityLists(promotions);
  /** Entries passes have chosen so far, counting towards the next opening of the lock. Guarded by listLock. */
  @GuardedBy("listLock")
  private int victimsChosen;
  /** Each file's entries, for evict-by-file. Guarded by listLock. */
  @GuardedBy("listLock")
  private final FileChains fileChains = new FileChains();
  private final LruEvictor evictor = new LruEvictor(this::runEviction);
  private volatile boolean closed;

  /** A cache that evicts on inserting threads until {@link #start()} is called. Starts no thread. */
  public LruBlockCache(LruConfig config) {
    this.config = config;
    long capacity = config.capacity();
    this.acceptableSize = config.acceptableSize();
    this.minSize = config.minSize();
    this.hardLimit = config.hardLimit();
    long expectedBlocks = Math.max(16, capacity / (config.minBlockSize() + HeapBlock.LRU_ENTRY_OVERHEAD));
    this.table = new EntryTable((int) Math.min(1 << 24, expectedBlocks));
  }

  /** The decimal a float factor was written as (0.95f is 0.949999988 as a double; 0.95 is meant). */
  private static double decimal(float factor) {
    return Double.parseDouble(Float.toString(factor));
  }

  /** Starts the background eviction thread (a daemon named {@code lru-evictor}). */
  public LruBlockCache start() {
    return start(r -> {
      Thread t = new Thread(r, "lru-evictor");
      t.setDaemon(true);
      return t;
    });
  }

  /** Starts the background eviction thread from {@code threadFactory}. */
  public LruBlockCache start(ThreadFactory threadFactory) {
    evictor.start(threadFactory);
    return this;
  }

  public LruConfig config() {
    return config;
  }

  /**
   * {@inheritDoc} The cache keeps a heap copy; the caller's buffer is not retained. Caching a present key counts as
   * an access to it (it is promoted as a hit would promote it), not as a hit.
   */
  @Override
  public CacheResult cacheBlock(BlockKey key, ByteBuf block, CacheOptions options) {
    Arguments.check(key, block, options);
    return counted(admit(key, block, options, Insert.COPY));
  }

  /**
   * {@inheritDoc} The cache keeps {@code block}'s array itself when netty's unpooled heap buffer owns it (a buffer
   * from {@code Unpooled.wrappedBuffer(byte[])} or an unpooled heap allocator) and the readable bytes fill most of
   * it, and copies otherwise ({@link HeapBlock#keepOrCopy}); it releases the caller's reference before returning.
   */
  @Override
  public CacheResult handOver(BlockKey key, ByteBuf block, CacheOptions options) {
    try {
      Arguments.check(key, block, options);
      return counted(admit(key, block, options, Insert.HAND_OVER));
    } finally {
      Arguments.releaseHandedOver(block);
    }
  }

  private CacheResult counted(CacheResult result) {
    if (result.isFailure()) {
      stats.failedInsertion();
    }
    return result;
  }

  private CacheResult admit(BlockKey key, ByteBuf block, CacheOptions options, Insert insert) {
    if (closed) {
      return CacheResult.DISABLED;
    }
    if (block.readableBytes() > config.maxBlockSize()) {
      return CacheResult.TOO_LARGE;
    }
    LruEntry present = table.get(key);
    if (present != null) {
      access(present);
      return CacheResult.ALREADY_CACHED;
    }
    long expected = (long) block.readableBytes() + HeapBlock.LRU_ENTRY_OVERHEAD;
    if (accounts.size() + expected > hardLimit && !fitsAfterEviction(expected)) {
      return CacheResult.OVER_CAPACITY;
    }
    LruEntry entry = new LruEntry(key, insert.heapBlock(block, options.category()), options.priority());
    long heapSize = entry.heapSize(HeapBlock.LRU_ENTRY_OVERHEAD);
    int priority = options.priority().ordinal();
    accounts.add(priority, options.category(), heapSize, 1);
    LruEntry raced;
    listLock.lockSpinning();
    try {
      lists.linkPromotedLocked();
      raced = table.putIfAbsentLocked(key, entry);
      if (raced == null) {
        lists.linkLastLocked(entry, priority);
        fileChains.linkLocked(entry);
      }
    } finally {
      listLock.unlock();
    }
    if (raced != null) {
      accounts.add(priority, options.category(), -heapSize, -1);
      access(raced);
      return CacheResult.ALREADY_CACHED;
    }
    if (accounts.size() > acceptableSize) {
      evictSoon();
    }
    return CacheResult.CACHED;
  }

  /**
   * {@inheritDoc} The view is read-only; releasing it never affects the cache.
   *
   * <p>Takes the key apart before the lookup: a caller that inlines this method but not the lookup still
   * scalar-replaces its key, and allocates only the view. Both compile to about 2 KB, under {@code InlineSmallCode},
   * so callers inline the whole get and allocate nothing.
   */
  @Override
  public ByteBuf getBlock(BlockKey key, ReadOptions options) {
    Objects.requireNonNull(key, "key");
    return getBlock(key.file(), key.offset(), key.hash64(), options);
  }

  /** {@inheritDoc} Allocates only the view, and takes no key. */
  @Override
  public ByteBuf getBlock(BlockFile file, long offset, ReadOptions options) {
    Objects.requireNonNull(file, "file");
    return getBlock(file.name(), offset, file.blockHash64(offset), options);
  }

  /** {@link #getBlock(BlockKey, ReadOptions)} of the key made of {@code file}, {@code offset} and {@code hash64}. */
  private ByteBuf getBlock(String file, long offset, long hash64, ReadOptions options) {
    EntryTable.Slots slots = table.slots();
    int slot = find(slots, file, offset, hash64, options);
    byte[] array = slot < 0 ? null : slots.blockAt(slot); // loaded before the entry is used: see EntryTable
    LruEntry entry = hit(slots, slot, file, offset, options);
    return entry == null ? null : entry.newView(array);
  }

  /**
   * {@inheritDoc} Lends this thread's reusable view; a key built per lookup is allocated where the JIT does not
   * inline this method into the caller, which {@link #read(BlockFile, long, ReadOptions, BlockReader)} avoids.
   */
  @Override
  public boolean read(BlockKey key, ReadOptions options, BlockReader reader) {
    Objects.requireNonNull(key, "key");
    return read(key.file(), key.offset(), key.hash64(), options, reader);
  }

  /** {@inheritDoc} Allocates nothing: it lends this thread's reusable view, and takes no key. */
  @Override
  public boolean read(BlockFile file, long offset, ReadOptions options, BlockReader reader) {
    Objects.requireNonNull(file, "file");
    return read(file.name(), offset, file.blockHash64(offset), options, reader);
  }

  /** {@link #read(BlockKey, ReadOptions, BlockReader)} of the key made of its parts. */
  private boolean read(String file, long offset, long hash64, ReadOptions options, BlockReader reader) {
    Objects.requireNonNull(reader, "reader");
    EntryTable.Slots slots = table.slots();
    int slot = find(slots, file, offset, hash64, options);
    byte[] array = slot < 0 ? null : slots.blockAt(slot);
    LruEntry entry = hit(slots, slot, file, offset, options);
    if (entry == null) {
      return false;
    }
    entry.read(reader, array);
    return true;
  }

  /** The slot of the key's entry in {@code slots}, or -1 (also once closed). */
  private int find(EntryTable.Slots slots, String file, long offset, long hash64, ReadOptions options) {
    Objects.requireNonNull(options, "options");
    return closed ? -1 : slots.find(file, offset, hash64);
  }

  /** The key's entry in {@code slot} (-1: none) with its hit recorded (bit, promotion, counter); null: a miss. */
  private LruEntry hit(EntryTable.Slots slots, int slot, String file, long offset, ReadOptions options) {
    LruEntry entry = slot < 0 ? null : slots.entryAt(slot, file, offset);
    if (entry != null) {
      access(entry);
    }
    stats.lookup(options, entry);
    return entry;
  }

  /** Records an access to {@code entry} for the policy: its reference bit, and its promotion on a first access. */
  private void access(LruEntry entry) {
    if (entry.recordHit()) {
      promoted(entry);
    }
  }

  /** Moves a just-promoted entry's bytes from single to multi and queues the move of its link ({@link Promotions}). */
  private void promoted(LruEntry entry) {
    accounts.promote(entry.heapSize(HeapBlock.LRU_ENTRY_OVERHEAD));
    promotions.offer(entry);
  }

  @Override
  public boolean evictBlock(BlockKey key) {
    Objects.requireNonNull(key, "key");
    LruEntry entry;
    listLock.lock();
    try {
      lists.linkPromotedLocked();
      entry = table.removeLocked(key);
      if (entry != null) {
        unlinkLocked(entry);
      }
    } finally {
      listLock.unlock();
    }
    return entry != null && retire(entry);
  }

  @Override
  public int evictBlocksByFile(String file) {
    Objects.requireNonNull(file, "file");
    int removed = 0;
    listLock.lock();
    try {
      lists.linkPromotedLocked();
      for (ChainedBlock chained : fileChains.takeLocked(file)) {
        LruEntry entry = (LruEntry) chained;
        if (table.removeLocked(entry) && retire(entry)) {
          removed++;
        }
        unlinkLocked(entry);
      }
    } finally {
      listLock.unlock();
    }
    return removed;
  }

  /**
   * Runs one eviction pass now on the calling thread if the cache is above its acceptable size; otherwise does
   * nothing.
   */
  public void runEviction() {
    listLock.lockSpinning();
    try {
      evictLocked(acceptableSize, minSize);
    } finally {
      listLock.unlock();
    }
  }

  /**
   * Whether a block costing {@code heapSize}, which would take the cache past its hard limit, fits after evicting.
   * While the started evictor has work (the size is above the acceptable size) eviction is lagging, and the block is
   * refused as HBase refuses it, with a pass requested. Otherwise the calling thread evicts now, down to the minimum
   * size or lower when the block needs it: that keeps a cache whose acceptable size leaves no room for one more
   * block (a cache sized for a few blocks) from refusing every insert, where a normal pass would free nothing.
   */
  private boolean fitsAfterEviction(long heapSize) {
    if (evictor.isStarted() && accounts.size() > acceptableSize) {
      evictor.requestNow();
      return false;
    }
    long target = Math.min(minSize, hardLimit - heapSize);
    listLock.lock();
    try {
      evictLocked(target, target);
    } finally {
      listLock.unlock();
    }
    return accounts.size() + heapSize <= hardLimit;
  }

  private void evictSoon() {
    if (evictor.isStarted()) {
      evictor.request();
    } else {
      runEviction();
    }
  }

  /** If the size is above {@code trigger}, frees down to {@code target}, split between priorities by their shares. */
  @GuardedBy("listLock")
  @SuppressWarnings("GuardedBy") // the victims callback runs inside lists.freeLocked, under the listLock held here
  private void evictLocked(long trigger, long target) {
    lists.linkPromotedLocked();
    long current = accounts.size();
    if (current <= trigger || closed) {
      return;
    }
    stats.evictionRun();
    long floor = Math.max(0, target);
    long[] sizes = accounts.prioritySizes();
    long[] targets = {
        (long) (floor * decimal(config.singlePercentage())),
        (long) (floor * decimal(config.multiPercentage())),
        (long) (floor * decimal(config.memoryPercentage()))};
    long[] plan = PriorityEvictionPlanner.plan(current - floor, sizes, targets,
        PriorityEvictionPlanner.Mode.of(config.inMemoryForceMode(), config.memoryPercentage()));
    for (int p = 0; p < plan.length; p++) {
      if (plan[p] > 0) {
        lists.freeLocked(p, plan[p], this::evictLocked);
      }
    }
  }

  /**
   * Removes the entry a pass chose from the table, the totals and its file chain, and opens the lock to a spinning
   * insert every {@link ListLock#CHUNK} victims; returns the heap freed.
   */
  @GuardedBy("listLock")
  private long evictLocked(LruEntry e) {
    long freed = 0;
    if (table.removeLocked(e) && retire(e)) {
      stats.evicted(e.category());
      freed = e.heapSize(HeapBlock.LRU_ENTRY_OVERHEAD);
    }
    fileChains.dropLocked(e);
    if (++victimsChosen % ListLock.CHUNK == 0) {
      listLock.letSpinnersInLocked();
    }
    return freed;
  }

  /** Marks a removed-from-map entry removed and takes it out of the totals, once; the caller unlinks it. */
  private boolean retire(LruEntry entry) {
    int left = entry.markRemoved();
    if (left == LruEntry.REMOVED) {
      return false;
    }
    accounts.add(left, entry.category(), -entry.heapSize(HeapBlock.LRU_ENTRY_OVERHEAD), -1);
    return true;
  }

  @GuardedBy("listLock")
  private void unlinkLocked(LruEntry entry) {
    lists.unlinkLocked(entry);
    fileChains.dropLocked(entry);
  }

  /** Bytes accounted to {@code priority} now (block bytes plus overhead). */
  public long prioritySize(CachePriority priority) {
    return accounts.prioritySize(priority.ordinal());
  }

  @Override
  public CacheStats stats() {
    return stats.snapshot(config.capacity(), accounts.size(), accounts.blockCounts());
  }

  @Override
  public long capacity() {
    return config.capacity();
  }

  @Override
  public long size() {
    return accounts.size();
  }

  @Override
  public long blockCount() {
    return table.size();
  }

  /** Stops the evictor and drops every block; views held by readers stay valid until released. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    evictor.stop();
    listLock.lock();
    try {
      table.forEachLocked(entry -> {
        if (table.removeLocked(entry)) {
          retire(entry);
        }
      });
      lists.clearLocked();
      fileChains.clearLocked();
    } finally {
      listLock.unlock();
    }
  }
}
