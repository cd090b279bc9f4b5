package dev.blockcache.bucket.policy;

import dev.blockcache.bucket.index.AccessSamples;
import dev.blockcache.bucket.index.FrequencySketch;

/**
 * The admission window's share for a cache that has just filled, chosen from the lookups sampled while it filled:
 * miniatures of the policy at each share ({@link WindowTrial}), three quarters of the size the trials replay, are run
 * over those lookups, and a share whose miniature clearly hit more often than the lower bound's is where the window
 * starts.
 *
 * <h2>Design notes</h2>
 * While a cache fills nothing is evicted, so every share hits the same lookups and the trials ({@link WindowTrials})
 * can only start ranking shares once it is full; they then need thousands of lookups to propose a share, and a
 * workload whose blocks are read again soon after their first miss loses most of those hits while the window sits at
 * its lower bound: the frequency test has turned away the blocks that would be hit next, and a window grown later
 * refills only as fast as the cache misses. A smaller cache does evict during the fill, and its shares differ on the
 * same lookups; the ranking there is taken as the ranking at full size. The smaller the miniature, the more of the
 * fill it ranks and the less its ranking is the cache's: at half the size, a looping trace's miniatures favoured a
 * large window that cost the cache itself many points (docs/decisions.md, "Reaching LRU where recency wins").
 * <ul>
 *   <li><b>Recorded</b>: the trials' keys of the last {@value #RECORDED} lookups sampled at the current sampling rate
 *       ({@link RecencyReference} sets it, and a change drops what was recorded at the old rate), in a ring dropped
 *       after the choice.</li>
 *   <li><b>Counted</b>: the lookups replayed once the miniatures are full; a share is chosen when its miniature hit
 *       more often than the lower bound's by more than {@value #LEAD} of them and by {@value #Z} standard deviations
 *       of the lookups that one of the two hit and the other missed.</li>
 * </ul>
 * A fill without re-reads (a scan, a loop longer than the cache) leaves every miniature at the same hits, and the
 * window at its lower bound.
 *
 * <p>Thread-safety: not thread-safe; its owner ({@link WindowSteering}) calls it under the {@link SpaceReclaimer}'s
 * lock.
 */
final class StartingShare {
  /** Lookups recorded: 16,384 (64 KiB of keys while the cache fills), a few fills of the largest miniature. */
  static final int RECORDED = 16_384;
  /**
   * The miniatures' size, as a share of the keys the trials replay: ¾ ranks shares as the cache does on the simulator's
   * traces, where smaller miniatures ranked more of the fill but misjudged loops (see the class notes).
   */
  static final double MINIATURE_SHARE = 0.75;
  /** Lead, as a share of the counted lookups, that chooses a share: 2 points. */
  static final double LEAD = 0.02;
  /** Standard deviations by which the lead must exceed its noise. */
  static final double Z = 3;

  private final AccessSamples samples;
  private final double[] shares;
  /** The recorded keys, a ring; null before the first record and after the choice. */
  private int[] recorded;
  private long recordedCount;
  /** The sampling rate of the recorded keys. */
  private int rate = -1;
  private boolean chosen;

  /** Chooses among {@code shares} (ascending, the lower bound first) on the lookups of {@code samples}. */
  StartingShare(AccessSamples samples, double[] shares) {
    this.samples = samples;
    this.shares = shares.clone();
  }

  /** Records a lookup of {@code key} sampled while the cache fills; does nothing once the share has been chosen. */
  void record(long key) {
    if (chosen) {
      return;
    }
    if (recorded == null) {
      recorded = new int[RECORDED];
    }
    if (rate != samples.rate()) {
      rate = samples.rate();
      recordedCount = 0;
    }
    recorded[(int) (recordedCount++ % RECORDED)] = WindowTrials.trialKey(key);
  }

  /**
   * The share the window should start at, for trials that replay {@code replayedKeys} keys, by the rule of the class
   * notes; NaN when none is clearly better than the lower bound. Called once, at the cache's first check: it drops the
   * recorded lookups, and later calls return NaN.
   */
  double choose(int replayedKeys) {
    int[] keys = recorded;
    long count = rate == samples.rate() ? Math.min(recordedCount, RECORDED) : 0;
    recorded = null;
    chosen = true;
    if (keys == null) {
      return Double.NaN;
    }
    int capacity = Math.max(1, (int) (replayedKeys * MINIATURE_SHARE));
    WindowTrial[] miniatures = new WindowTrial[shares.length];
    for (int i = 0; i < shares.length; i++) {
      miniatures[i] = new WindowTrial(shares[i], capacity);
    }
    FrequencySketch sketch = new FrequencySketch(capacity);
    sketch.ensureCapacity(capacity);
    long[] leads = new long[shares.length]; // over the lower bound's miniature
    long[] discordant = new long[shares.length];
    long counted = 0;
    for (long j = recordedCount - count; j < recordedCount; j++) {
      int key = keys[(int) (j % RECORDED)];
      boolean full = miniatures[0].size() >= capacity;
      sketch.increment(key);
      boolean lowerHit = miniatures[0].access(key, sketch);
      for (int i = 1; i < miniatures.length; i++) {
        boolean hit = miniatures[i].access(key, sketch);
        if (full) {
          leads[i] += (hit ? 1 : 0) - (lowerHit ? 1 : 0);
          discordant[i] += hit != lowerHit ? 1 : 0;
        }
      }
      counted += full ? 1 : 0;
    }
    int best = 0;
    for (int i = 1; i < shares.length; i++) {
      if (leads[i] > leads[best]) {
        best = i;
      }
    }
    boolean clear = leads[best] > LEAD * counted && leads[best] > Z * Math.sqrt(discordant[best] + 1.0);
    return clear ? shares[best] : Double.NaN;
  }

  /** Heap of the recorded keys in bytes: 0 before the first record and after the choice. */
  long heapBytes() {
    return recorded == null ? 0 : 4L * recorded.length;
  }
}
