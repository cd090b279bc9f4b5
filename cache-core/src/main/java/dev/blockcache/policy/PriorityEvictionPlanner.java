package dev.blockcache.policy;

import dev.blockcache.api.CachePriority;

/**
 * Decides how many bytes each priority gives up when the cache must free {@code bytesToFree}, with HBase's
 * LruBlockCache policy (its BucketCache applies the normal mode with its own factors):
 *
 * <ul>
 *   <li><b>Normal mode.</b> Each priority has a target of {@code share × minSize}; only priorities above their target
 *       give bytes. They are visited from the smallest overflow to the largest, and each gives the smaller of its
 *       overflow and an even split of what is still to free among the priorities not yet visited — so a priority
 *       slightly over target gives little and the most oversized one gives the rest.</li>
 *   <li><b>In-memory force mode</b> (or a memory share of 1). In-memory blocks are protected while single and multi
 *       blocks remain: if single plus multi cannot cover {@code bytesToFree}, both are emptied and memory gives the
 *       remainder; otherwise only single and multi give, leaving them as close to a 1 : 2 split as possible.</li>
 * </ul>
 *
 * <p>Thread-safety: stateless.
 */
public final class PriorityEvictionPlanner {
  private static final int SINGLE = CachePriority.SINGLE.ordinal();
  private static final int MULTI = CachePriority.MULTI.ordinal();
  private static final int MEMORY = CachePriority.MEMORY.ordinal();

  private PriorityEvictionPlanner() {}

  /** Which of the two modes in the class notes a plan follows. */
  public enum Mode {
    /** Only priorities above their target give bytes. */
    NORMAL,
    /** In-memory force mode (or a memory share of 1): in-memory blocks go last. */
    PROTECT_IN_MEMORY;

    /** The mode of an LRU configured with {@code inMemoryForceMode} and a memory share of {@code memoryShare}. */
    public static Mode of(boolean inMemoryForceMode, float memoryShare) {
      return inMemoryForceMode || memoryShare > 0.999f ? PROTECT_IN_MEMORY : NORMAL;
    }
  }

  /**
   * Bytes to free per priority (indexed by {@link CachePriority#ordinal()}).
   *
   * @param sizes current bytes per priority
   * @param targets each priority's share of the post-eviction size
   * @param mode whether in-memory blocks are protected
   */
  public static long[] plan(long bytesToFree, long[] sizes, long[] targets, Mode mode) {
    long[] plan = new long[CachePriority.COUNT];
    if (bytesToFree <= 0) {
      return plan;
    }
    if (mode == Mode.PROTECT_IN_MEMORY) {
      planProtectingMemory(bytesToFree, sizes, plan);
    } else {
      planByOverflow(bytesToFree, sizes, targets, plan);
    }
    return plan;
  }

  private static void planByOverflow(long bytesToFree, long[] sizes, long[] targets, long[] plan) {
    Integer[] order = {SINGLE, MULTI, MEMORY};
    java.util.Arrays.sort(order, (a, b) -> Long.compare(sizes[a] - targets[a], sizes[b] - targets[b]));
    long planned = 0;
    int unvisited = order.length;
    for (int p : order) {
      long overflow = sizes[p] - targets[p];
      if (overflow > 0) {
        plan[p] = Math.min(overflow, (bytesToFree - planned) / unvisited);
        planned += plan[p];
      }
      unvisited--;
    }
  }

  private static void planProtectingMemory(long bytesToFree, long[] sizes, long[] plan) {
    long single = sizes[SINGLE];
    long multi = sizes[MULTI];
    if (bytesToFree > single + multi) {
      plan[SINGLE] = single;
      plan[MULTI] = multi;
      plan[MEMORY] = bytesToFree - single - multi;
      return;
    }
    long left = single + multi - bytesToFree;
    long singleKeep = left / 3;
    if (single <= singleKeep) {
      plan[MULTI] = bytesToFree;
    } else if (multi <= left - singleKeep) {
      plan[SINGLE] = bytesToFree;
    } else {
      plan[SINGLE] = single - singleKeep;
      plan[MULTI] = bytesToFree - plan[SINGLE];
    }
  }
}
