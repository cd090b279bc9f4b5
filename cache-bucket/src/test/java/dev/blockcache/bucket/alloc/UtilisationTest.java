package dev.blockcache.bucket.alloc;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.bucket.config.BucketCacheConfig;
import org.junit.jupiter.api.Test;

/**
 * The utilisation target: at least 90% of the capacity holds block bytes once full, under block lengths uniform in
 * 4–64 KiB. Each run fills a 2 GiB allocator until an allocation fails, then inserts four times as many blocks again,
 * evicting random blocks whenever one does not fit, and samples utilisation at every failed allocation
 * ({@link UtilisationSimulation}). Figures are printed; rerun with
 * {@code ./mvnw -B -q -o -pl cache-bucket -am verify -Dtest=UtilisationTest -Dsurefire.failIfNoSpecifiedTests=false}.
 */
class UtilisationTest {
  private static final long CAPACITY = 2L << 30;
  private static final int MIN_BLOCK = 4 * 1024;
  private static final int MAX_BLOCK = 64 * 1024;
  private static final long SEED = 20261122L;

  @Test
  void fineSizesKeepNinetyPercentOfCapacityInBlockBytesOnceFull() {
    int[] sizes = BucketSizes.fine(MAX_BLOCK);
    UtilisationSimulation.Result fine = UtilisationSimulation.run(sizes, CAPACITY, SEED, MIN_BLOCK, MAX_BLOCK);
    UtilisationSimulation.Result hbase =
        UtilisationSimulation.run(BucketCacheConfig.defaultBucketSizes(), CAPACITY, SEED, MIN_BLOCK, MAX_BLOCK);
    System.out.println("utilisation, uniform 4-64 KiB blocks, 2 GiB: HBase default sizes (14 classes) " + hbase);
    System.out.println("utilisation, uniform 4-64 KiB blocks, 2 GiB: BucketSizes.fine(64 KiB) (" + sizes.length
        + " classes) " + fine);
    assertTrue(fine.afterFill >= 0.90, "after fill: " + fine);
    assertTrue(fine.meanWhenFull >= 0.90, "once full under churn: " + fine);
    // The default list cannot reach it: documents why fine() exists.
    assertTrue(hbase.meanWhenFull < 0.90, "HBase default: " + hbase);
  }

  @Test
  void bucketsMigrateWhenTheWorkloadMovesToLargerBlocks() {
    // Fill with small blocks only, then ask only for large ones: without migration every large allocation would fail
    // forever; with it, random eviction empties small-class buckets and the large class takes them.
    int[] sizes = BucketSizes.fine(MAX_BLOCK);
    BucketAllocator allocator = new BucketAllocator(256L << 20, sizes);
    UtilisationSimulation sim = new UtilisationSimulation(allocator, SEED);
    double small = sim.fill(MIN_BLOCK, 8 * 1024);
    int before = allocator.stats().sizeClass(allocator.sizeClassOf(MAX_BLOCK)).buckets();
    UtilisationSimulation.Result large = sim.churn(small, sim.live() * 4, 48 * 1024, MAX_BLOCK);
    AllocatorStats stats = allocator.stats();
    long smallItems = 0;
    for (int c = 0; c <= allocator.sizeClassOf(8 * 1024); c++) {
      smallItems += stats.sizeClass(c).usedItems();
    }
    System.out.printf("migration 4-8 KiB -> 48-64 KiB, 256 MiB: small fill %.4f, then %s, end %.4f%n", small, large,
        stats.utilisation());
    assertTrue(before == 0 && stats.sizeClass(allocator.sizeClassOf(MAX_BLOCK)).buckets() > 0, stats::toString);
    assertTrue(smallItems < 100, "small blocks left: " + smallItems);
    assertTrue(stats.utilisation() >= 0.85, stats::toString);
  }
}
