package dev.blockcache.sizing;

import dev.blockcache.bucket.alloc.BucketAllocator;
import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.bucket.config.BucketCacheKeys;
import dev.blockcache.bucket.config.EngineGeometry;
import dev.blockcache.bucket.engine.FileIoEngine;
import dev.blockcache.bucket.engine.HeapIoEngine;
import dev.blockcache.bucket.engine.IoEngineRegistry;
import dev.blockcache.bucket.engine.MmapIoEngine;
import dev.blockcache.bucket.engine.OffHeapIoEngine;
import dev.blockcache.bucket.engine.PageCache;
import dev.blockcache.bucket.format.BlockHeader;
import dev.blockcache.bucket.index.IndexHeap;
import dev.blockcache.config.ConfigException;
import dev.blockcache.config.L1Policy;
import dev.blockcache.config.LruConfig;
import dev.blockcache.config.TinyLfuConfig;
import dev.blockcache.site.SiteConfig;
import dev.blockcache.site.SiteConfigReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;

/**
 * Sizes the cache an hbase-site.xml describes on a {@link Machine}, with the arithmetic the cache itself uses: the
 * config reader for the tier capacities, the L1 configs for what the L1 accounts and when it evicts, the bucket
 * allocator for size classes and packing, the block header for per-block overhead, and the index's own growth rule
 * for its heap. Nothing is started and no memory or file is allocated.
 *
 * <h2>Checks</h2>
 * <ul>
 *   <li>an {@code offheap} L2 larger than the direct memory limit (the engine could not be allocated);
 *   <li>a file engine's files larger than their disks;
 *   <li>L1 + L2 index + writer queues (+ a {@code heap} L2) above the heap HBase leaves the block cache:
 *       {@value #MAX_CACHE_AND_MEMSTORE_SHARE} of the heap minus {@value #MEMSTORE_SIZE};
 *   <li>heap + L2 memory outside the heap + reserved RAM above the RAM;
 *   <li>a block too large for every L2 item size or for the L1's max block size.
 * </ul>
 *
 * <h2>Datasets (the YCSB sizing method)</h2>
 * A dataset that fits in the block cache runs from memory; one larger than block cache plus page cache runs from the
 * disk. The page cache is taken to be all RAM that the JVM's heap, the L2's memory outside the heap (direct memory
 * for {@code offheap}, the mapped file for {@code mmap:}) and the reserved RAM leave, as the method counts it
 * (128 GB of RAM, 32 GB heap: ~96 GB of OS cache per server, other processes ignored unless reserved).
 *
 * <p>Thread-safety: stateless.
 */
public final class CacheSizer {
  /** HBase's key for the memstores' share of the heap. */
  public static final String MEMSTORE_SIZE = "hbase.regionserver.global.memstore.size";
  /** HBase's default memstore share. */
  public static final double DEFAULT_MEMSTORE_SIZE = 0.4;
  /** HBase refuses to start when the block cache and the memstores together take more than this share of the heap. */
  public static final double MAX_CACHE_AND_MEMSTORE_SHARE = 0.8;

  private CacheSizer() {}

  /**
   * The report for the hbase-site.xml at {@code site} on {@code machine}.
   *
   * @throws ConfigException naming the file or key when the site cannot be read or a value is not accepted
   */
  public static SizingReport size(Path site, Machine machine) {
    return size(SiteConfigReader.load(site), machine);
  }

  /**
   * The report for {@code conf} on {@code machine}.
   *
   * @throws ConfigException naming the key when a value is not accepted
   */
  public static SizingReport size(Configuration conf, Machine machine) {
    // The memstore share first: the reader applies HBase's L1 + memstore rule and would name the L1 key for a
    // memstore value that is out of range on its own.
    double memstore = memstoreShare(conf);
    SiteConfig site = SiteConfigReader.read(conf, machine.heapBytes());
    List<String> problems = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    L1Fit l1 = l1Fit(site, machine);
    L2Fit l2 = site.l2().map(c -> l2Fit(c, machine)).orElse(null);
    if (l1 == null) {
      notes.add(SiteConfigReader.L1_SIZE + "=" + conf.getTrimmed(SiteConfigReader.L1_SIZE)
          + " disables the block cache: nothing is cached");
    } else if (l1.blocks() == 0) {
      problems.add("blocks of " + machine.blockSize() + " bytes exceed the L1's max block size ("
          + (l1.policy() == L1Policy.LRU ? LruConfig.MAX_BLOCK_SIZE : TinyLfuConfig.MAX_BLOCK_SIZE)
          + "): the L1 caches none of them");
    }
    long offHeapL2 = 0;
    long heapL2 = 0;
    if (l2 != null) {
      checkL2(l2, machine, problems, notes);
      notes.add("L2 index heap: projected for keys spread evenly over many files; keys of a few large files vary"
          + " more between index segments (measured -13% to +20%)");
      offHeapL2 = l2.scheme().equals(OffHeapIoEngine.SCHEME) || l2.scheme().equals(MmapIoEngine.SCHEME)
          ? l2.usableBytes() : 0;
      heapL2 = l2.scheme().equals(HeapIoEngine.SCHEME) ? l2.usableBytes() : 0;
    }
    long cacheHeap = l1 == null ? 0 : l1.capacityBytes() + heapL2
        + (l2 == null ? 0 : l2.indexHeapBytes() + l2.writerQueueHeapBytes());
    long heapLimit = (long) (machine.heapBytes() * (MAX_CACHE_AND_MEMSTORE_SHARE - memstore));
    // The L1 share is read as a float (0.4f is 0.40000001): a millionth of the heap keeps 0.4 + 0.4 within 80%.
    if (cacheHeap - heapLimit > machine.heapBytes() / 1_000_000) {
      String l1Key = l1Key(conf);
      problems.add("the cache takes " + ByteSizes.format(cacheHeap) + " of heap (" + heapParts(l1Key, l1, l2)
          + "), more than the " + ByteSizes.format(heapLimit) + " HBase leaves it on a heap of "
          + ByteSizes.format(machine.heapBytes()) + " with " + MEMSTORE_SIZE + "=" + memstore + ": block cache and"
          + " memstores together may take at most " + Math.round(MAX_CACHE_AND_MEMSTORE_SHARE * 100)
          + "% of the heap; lower " + l1Key.substring(0, l1Key.indexOf('=')) + (heapL2 > 0 ? " or "
          + BucketCacheKeys.SIZE : "") + ", or raise -Xmx (--heap)");
    }
    long pageCache = machine.ramBytes() - machine.heapBytes() - offHeapL2 - machine.reservedRamBytes();
    notes.add("page cache: all RAM that the heap, the L2's memory outside the heap and --reserved-ram leave, as the"
        + " YCSB sizing method counts it (128 GB RAM, 32 GB heap: ~96 GB of OS cache); reserve RAM for the OS, a"
        + " DataNode or other processes with --reserved-ram");
    if (pageCache < 0) {
      problems.add("heap " + ByteSizes.format(machine.heapBytes()) + " + L2 outside the heap "
          + ByteSizes.format(offHeapL2) + " + reserved " + ByteSizes.format(machine.reservedRamBytes())
          + " exceed the RAM (--ram=" + ByteSizes.format(machine.ramBytes()) + ")");
    }
    long cached = l2 != null ? l2.blocks() * machine.blockSize()
        : l1 != null ? l1.blocks() * machine.blockSize() : 0;
    if (l2 != null && l1 != null) {
      notes.add("with an L2, data blocks are cached in the L2 only; the L1 (" + ByteSizes.format(l1.capacityBytes())
          + ") holds index, bloom and meta blocks, so it does not add to the dataset that fits");
    }
    if (l2 == null && l1 != null) {
      notes.add("without an L2 the L1 holds index and bloom blocks too, so a little less data than computed");
    }
    return new SizingReport(machine, l1, l2, memstore, cacheHeap, heapLimit, Math.max(0, pageCache), cached,
        problems, notes, site.reportedKeys());
  }

  private static L1Fit l1Fit(SiteConfig site, Machine m) {
    if (site.lru().isPresent()) {
      LruConfig c = site.lru().get();
      return L1Fit.of(L1Policy.LRU, c.capacity(), c.acceptableSize(), c.maxBlockSize(), m.blockSize());
    }
    return site.tinyLfu()
        .map(c -> L1Fit.of(L1Policy.TINYLFU, c.capacity(), c.capacity(), c.maxBlockSize(), m.blockSize()))
        .orElse(null);
  }

  private static L2Fit l2Fit(BucketCacheConfig c, Machine m) {
    String scheme = IoEngineRegistry.withBuiltins().knownScheme(c.ioEngine());
    long usable = EngineGeometry.capacity(c);
    // A one-bucket allocator answers size-class questions with the allocator's own code, allocating ~nothing.
    BucketAllocator oneBucket = new BucketAllocator(c.bucketCapacity(), c.bucketSizes(), c.bucketCapacity());
    int stored = BlockHeader.headerLength(m.fileNameBytes()) + m.blockSize();
    int sizeClass = stored <= oneBucket.maxItemSize() ? oneBucket.sizeClassOf(stored) : -1;
    long itemBytes = sizeClass < 0 ? 0 : oneBucket.itemSize(sizeClass);
    long perBucket = sizeClass < 0 ? 0 : oneBucket.itemsPerBucket(sizeClass);
    long buckets = usable / oneBucket.bucketCapacity();
    long blocks = buckets * perBucket;
    long indexHeap = IndexHeap.projectedHeapBytes(EngineGeometry.expectedIndexEntries(usable), blocks);
    long queueHeap = (long) c.writerThreads() * c.writerQueueLength() * m.blockSize();
    List<String> files = new ArrayList<>();
    long fileBytes = 0;
    if (scheme.equals(FileIoEngine.SCHEME) || scheme.equals(FileIoEngine.STRIPED_SCHEME)) {
      FileIoEngine.paths(c.ioEngine()).forEach(p -> files.add(p.toString()));
      fileBytes = FileIoEngine.fileSize(usable, EngineGeometry.segmentSize(c), files.size(),
          PageCache.directIo(c.fileDirectIo()));
    } else if (scheme.equals(MmapIoEngine.SCHEME)) {
      FileIoEngine.paths(c.ioEngine()).forEach(p -> files.add(p.toString()));
      fileBytes = MmapIoEngine.fileSize(usable);
    }
    return new L2Fit(c.ioEngine(), scheme, c.capacity(), usable, oneBucket.bucketCapacity(), buckets, stored,
        itemBytes, perBucket, blocks, indexHeap, queueHeap, fileBytes, files);
  }

  private static void checkL2(L2Fit l2, Machine m, List<String> problems, List<String> notes) {
    String engine = BucketCacheKeys.IOENGINE + "=" + l2.ioEngine();
    String size = BucketCacheKeys.SIZE + "=" + l2.configuredBytes() / (1024 * 1024) + " MB";
    if (l2.blocks() == 0) {
      problems.add("blocks of " + m.blockSize() + " bytes are stored as " + l2.storedBytes() + " bytes (with their "
          + "header), more than the largest item of " + BucketCacheKeys.BUCKET_SIZES + ": the L2 caches none");
    }
    if (l2.scheme().equals(OffHeapIoEngine.SCHEME) && l2.usableBytes() > m.directMemoryBytes()) {
      problems.add(size + " with " + engine + " needs " + ByteSizes.exact(l2.usableBytes())
          + " of direct memory, more than the limit of " + ByteSizes.exact(m.directMemoryBytes())
          + " (-XX:MaxDirectMemorySize, --direct-memory): the L2 cannot start; raise the limit above "
          + ByteSizes.format(l2.usableBytes()) + " plus room for other direct buffers, or lower "
          + BucketCacheKeys.SIZE);
    }
    if (!l2.files().isEmpty()) {
      checkDisks(l2, m, engine, size, problems, notes);
      if (l2.scheme().equals(MmapIoEngine.SCHEME)) {
        notes.add("mmap: the mapped L2 file lives in the page cache, so it is counted as RAM outside the heap");
      } else {
        notes.add("file engines without " + BucketCacheKeys.FILE_DIRECT_IO + "=true read through the page"
            + " cache, where L2 pages then compete with the dataset's pages");
      }
    }
  }

  private static void checkDisks(L2Fit l2, Machine m, String engine, String size, List<String> problems,
      List<String> notes) {
    List<Long> disks = m.diskBytes();
    if (disks.isEmpty()) {
      notes.add("disk sizes not given (--disk): the L2 files (" + ByteSizes.format(l2.fileBytes())
          + " each) were not checked against their disks");
      return;
    }
    if (disks.size() != 1 && disks.size() != l2.files().size()) {
      throw new ConfigException("--disk", disks, "one size, or one per file of " + engine + " ("
          + l2.files().size() + ")");
    }
    for (int i = 0; i < l2.files().size(); i++) {
      long disk = disks.get(disks.size() == 1 ? 0 : i);
      if (l2.fileBytes() > disk) {
        problems.add(size + " with " + engine + " needs a file of " + ByteSizes.exact(l2.fileBytes()) + " at "
            + l2.files().get(i) + ", larger than its disk (--disk=" + ByteSizes.exact(disk) + ")");
      }
    }
  }

  /** The key (and value) the L1 capacity came from: the memory size when set, else the heap share. */
  private static String l1Key(Configuration conf) {
    return conf.getTrimmed(SiteConfigReader.L1_MEMORY_SIZE) != null
        ? SiteConfigReader.L1_MEMORY_SIZE + "=" + conf.getTrimmed(SiteConfigReader.L1_MEMORY_SIZE)
        : SiteConfigReader.L1_SIZE + "=" + conf.getTrimmed(SiteConfigReader.L1_SIZE,
            String.valueOf(SiteConfigReader.DEFAULT_L1_SIZE));
  }

  private static String heapParts(String l1Key, L1Fit l1, L2Fit l2) {
    StringBuilder parts = new StringBuilder("L1 " + ByteSizes.format(l1.capacityBytes()) + " from " + l1Key);
    if (l2 != null) {
      if (l2.scheme().equals(HeapIoEngine.SCHEME)) {
        parts.append(", heap L2 ").append(ByteSizes.format(l2.usableBytes()));
      }
      parts.append(", L2 index ").append(ByteSizes.format(l2.indexHeapBytes()))
          .append(", L2 writer queues ").append(ByteSizes.format(l2.writerQueueHeapBytes()));
    }
    return parts.toString();
  }

  private static double memstoreShare(Configuration conf) {
    String text = conf.getTrimmed(MEMSTORE_SIZE);
    if (text == null || text.isEmpty()) {
      return DEFAULT_MEMSTORE_SIZE;
    }
    try {
      double share = Double.parseDouble(text);
      if (share >= 0 && share < MAX_CACHE_AND_MEMSTORE_SHARE) {
        return share;
      }
    } catch (NumberFormatException e) {
      // reported below with the key
    }
    throw new ConfigException(MEMSTORE_SIZE, text, "a share of the heap in [0, " + MAX_CACHE_AND_MEMSTORE_SHARE + ")");
  }

}
