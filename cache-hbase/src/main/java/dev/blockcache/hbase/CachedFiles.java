package dev.blockcache.hbase;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.bucket.BucketCache;
import dev.blockcache.bucket.index.IndexEntry;
import dev.blockcache.bucket.slot.ResidencyListener;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntFunction;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.util.Pair;
import org.slf4j.LoggerFactory;

/**
 * HBase 2.6's cache bookkeeping for one L2, kept as blocks take and leave slots (a {@link ResidencyListener}), never
 * by a scan: the bytes the L2 holds per HFile and per region ({@code getRegionCachedInfo}, read by the RegionServer's
 * load reports and through them the cache-aware balancer), and the files prefetch found fully cached
 * ({@code getFullyCachedFiles}). A get does not touch it.
 *
 * <p>The region of a file is learnt from the path in HBase's cache key when the file's first block is offered
 * ({@link #learnRegion}): an HFile lives at {@code <table>/<region>/<family>/<file>}, so the region's encoded name is
 * the name of the file's parent's parent, as HBase's own BucketCache derives it. A file whose blocks came without a
 * path is counted per file, under no region until its region is learnt: blocks restored from a checkpoint are
 * announced with their keys (file names) when the bookkeeping starts, and join their region when the RegionServer
 * opens it ({@link #learnRegion} with the region's store file paths).
 *
 * <p>Bytes are stored lengths (our block header included), as the L2's {@code size()} counts them.
 *
 * <p>Thread-safety: safe for concurrent use. Each file's record is guarded by its own monitor; region totals and
 * the fully-cached map are concurrent maps updated atomically per key. A record with no block left is retired (its
 * id freed for reuse) under its monitor; a block arriving meanwhile makes a new record.
 */
final class CachedFiles implements ResidencyListener {
  private final SlotOwners owners;
  private final Map<String, FileRecord> byName = new ConcurrentHashMap<>();
  private final Map<String, String> regionOfFile = new ConcurrentHashMap<>();
  private final Map<String, Long> regionBytes = new ConcurrentHashMap<>();
  private final Map<String, Pair<String, Long>> fullyCached = new ConcurrentHashMap<>();
  private final FileIds ids = new FileIds();

  /**
   * Bookkeeping for {@code l2}, counting the blocks it holds already (restored from a checkpoint: one slot header read
   * each). Call before handing {@code l2} out.
   */
  static CachedFiles listenTo(BucketCache l2) {
    CachedFiles files = new CachedFiles(new SlotOwners(l2));
    int restored = l2.listenToResidency(files);
    if (restored > 0) {
      LoggerFactory.getLogger(CachedFiles.class).info("{} blocks restored in the L2 counted per file", restored);
    }
    return files;
  }

  private CachedFiles(SlotOwners owners) {
    this.owners = owners;
  }

  /**
   * Remembers the region of the file at {@code path} (HBase's cache keys carry it on the read and write paths). Costs
   * one map lookup once the file is known.
   */
  void learnRegion(Path path) {
    if (path == null || regionOfFile.containsKey(path.getName())) {
      return;
    }
    Path family = path.getParent();
    Path region = family == null ? null : family.getParent();
    if (region == null || regionOfFile.putIfAbsent(path.getName(), region.getName()) != null) {
      return;
    }
    // Blocks counted before the region was known (restored from a checkpoint, or cached without a path) join it.
    FileRecord record = byName.get(path.getName());
    if (record != null) {
      synchronized (record) {
        if (!record.retired && record.region == null) {
          record.region = region.getName();
          regionBytes.merge(record.region, record.bytes, CachedFiles::sumOrNull);
        }
      }
    }
  }

  @Override
  public void stored(BlockKey key, long entry) {
    int length = IndexEntry.length(entry);
    boolean data = IndexEntry.category(entry) == BlockCategory.DATA;
    while (true) {
      FileRecord file = byName.computeIfAbsent(key.file(), this::newRecord);
      synchronized (file) {
        if (file.retired) {
          continue;
        }
        file.blocks++;
        file.bytes += length;
        if (data) {
          file.dataBlocks++;
        }
        if (file.region != null) {
          regionBytes.merge(file.region, (long) length, CachedFiles::sumOrNull);
        }
      }
      owners.set(entry, file.id);
      return;
    }
  }

  @Override
  public void removed(long entry) {
    int id = owners.take(entry);
    FileRecord file = id == SlotOwners.NONE ? null : ids.get(id);
    if (file == null) {
      return;
    }
    int length = IndexEntry.length(entry);
    synchronized (file) {
      file.blocks--;
      file.bytes -= length;
      if (IndexEntry.category(entry) == BlockCategory.DATA) {
        file.dataBlocks--;
      }
      fullyCached.remove(file.name);
      if (file.region != null) {
        regionBytes.merge(file.region, (long) -length, CachedFiles::sumOrNull);
      }
      if (file.blocks == 0) {
        file.retired = true;
        byName.remove(file.name, file);
        ids.free(file.id);
      }
    }
  }

  /** Forgets the region learnt for {@code file}, whose blocks were all evicted (HBase closed or removed it). */
  void forget(String file) {
    regionOfFile.remove(file);
  }

  /**
   * Records {@code file} as fully cached (size {@code size} bytes, as HBase's prefetch reports it) if the L2 holds at
   * least {@code dataBlocks} data blocks of it; an eviction of any of its blocks takes it off again.
   *
   * @return whether it was recorded
   */
  boolean fullyCachedIfHeld(Path file, int dataBlocks, long size) {
    FileRecord record = byName.get(file.getName());
    if (record == null) {
      return false;
    }
    synchronized (record) {
      if (record.retired || record.dataBlocks < dataBlocks) {
        return false;
      }
      fullyCached.put(record.name, new Pair<>(record.region, size));
      return true;
    }
  }

  /** Stored bytes per region's encoded name; a live, unmodifiable view. */
  Map<String, Long> regionBytes() {
    return Collections.unmodifiableMap(regionBytes);
  }

  /** Fully cached files: name to (region, size); a live, unmodifiable view. */
  Map<String, Pair<String, Long>> fullyCached() {
    return Collections.unmodifiableMap(fullyCached);
  }

  boolean isFullyCached(String file) {
    return fullyCached.containsKey(file);
  }

  /** Stored bytes of {@code file}'s blocks, 0 if none. */
  long fileBytes(String file) {
    FileRecord record = byName.get(file);
    if (record == null) {
      return 0;
    }
    synchronized (record) {
      return record.bytes;
    }
  }

  /** Names of the files with blocks in the L2 whose region is {@code region}: a walk over the files, not the blocks. */
  List<String> filesOf(String region) {
    List<String> names = new ArrayList<>();
    for (FileRecord record : byName.values()) {
      synchronized (record) {
        if (region.equals(record.region)) {
          names.add(record.name);
        }
      }
    }
    return names;
  }

  private FileRecord newRecord(String name) {
    FileRecord record = ids.add(id -> new FileRecord(id, name));
    record.region = regionOfFile.get(name); // before the record is visible to anyone else
    return record;
  }

  private static Long sumOrNull(Long a, Long b) {
    long sum = a + b;
    return sum == 0 ? null : sum;
  }

  /** One file's blocks in the L2. */
  private static final class FileRecord {
    final int id;
    final String name;
    /** Encoded region name, or null while unknown; set once. Guarded by this record's monitor. */
    String region;
    // Guarded by this record's monitor.
    int blocks;
    int dataBlocks;
    long bytes;
    boolean retired;

    FileRecord(int id, String name) {
      this.id = id;
      this.name = name;
    }
  }

  /**
   * Small int ids for the live records, reused once freed, so that {@link SlotOwners} needs an int per slot.
   * Thread-safety: all methods synchronized; {@link #get} of an id handed out reads the record written before.
   */
  private static final class FileIds {
    private FileRecord[] records = new FileRecord[64];
    private final ArrayDeque<Integer> free = new ArrayDeque<>();
    private int next = SlotOwners.NONE + 1;

    synchronized FileRecord add(IntFunction<FileRecord> make) {
      int id = free.isEmpty() ? next++ : free.pop();
      if (id >= records.length) {
        records = Arrays.copyOf(records, records.length * 2);
      }
      FileRecord record = make.apply(id);
      records[id] = record;
      return record;
    }

    synchronized FileRecord get(int id) {
      return id < records.length ? records[id] : null;
    }

    synchronized void free(int id) {
      records[id] = null;
      free.push(id);
    }
  }
}
