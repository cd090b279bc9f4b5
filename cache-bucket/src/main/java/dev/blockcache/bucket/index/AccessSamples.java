package dev.blockcache.bucket.index;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A spatially sampled record of the L2's lookups, for the policy to replay in a miniature simulation: the lookups of
 * the keys whose fingerprint hashes below the sampling rate (every lookup of a sampled key, none of the others, so
 * that a sampled key's whole history is seen), each with whether the index held the key.
 *
 * <h2>Design notes</h2>
 * Lookups run on every reader thread and must stay cheap: an unsampled lookup costs one hash and a compare; a
 * sampled one takes the next position of one of {@value #STRIPES} rings (picked by the thread's id, so that readers
 * of a small cache, whose every lookup is sampled, do not all add to one counter) with one atomic add and writes one
 * {@code long} there. A ring is lossy: if the policy has not drained it for {@value #STRIPE_CAPACITY} sampled lookups,
 * the oldest are overwritten. What the policy derives from the samples is a ratio (hits under two policies over the
 * same lookups), which a lost sample does not bias; nor does the order between rings, which only the lookups of
 * different threads can lose.
 *
 * <p>A sample is {@code (fingerprint << 1) | hit}: the fingerprint's top bit is dropped (a 63-bit key for the
 * simulation), and 0, which marks a position not yet written, is never a sample.
 *
 * <p>Thread-safety: {@link #record} is safe from any number of threads; {@link #drain} and {@link #setRate} callers
 * serialise (the L2's reclaimer calls them under its lock).
 */
public final class AccessSamples {
  /** Rings, a power of two: 4 spreads the readers of a small cache over as many counters. */
  static final int STRIPES = 4;
  /** Positions of one ring: 1,024 (8 KiB) holds many admissions' worth of sampled lookups between two drains. */
  static final int STRIPE_CAPACITY = 1024;
  /** Denominator of the sampling rate: a key is sampled if its hash's low 16 bits are below the rate. */
  public static final int RATE_SCALE = 1 << 16;

  private final Ring[] rings = new Ring[STRIPES];
  /** Sampled keys hash below this, out of {@link #RATE_SCALE}: 0 samples nothing. */
  private volatile int rate;

  /** An empty record that samples nothing until {@link #setRate}. */
  public AccessSamples() {
    for (int i = 0; i < STRIPES; i++) {
      rings[i] = new Ring();
    }
  }

  /** Samples keys at {@code rate} / {@value #RATE_SCALE} (0: none, {@value #RATE_SCALE}: all). */
  public void setRate(int rate) {
    if (rate < 0 || rate > RATE_SCALE) {
      throw new IllegalArgumentException("rate must be in [0, " + RATE_SCALE + "], was " + rate);
    }
    this.rate = rate;
  }

  /** The current rate, out of {@value #RATE_SCALE}. */
  public int rate() {
    return rate;
  }

  /** Whether lookups of {@code fingerprint} are sampled at the current rate. */
  public boolean sampled(long fingerprint) {
    return (int) (mix(fingerprint) & (RATE_SCALE - 1)) < rate;
  }

  /** Records a lookup of {@code fingerprint}, which found the key ({@code hit}) or not, if the key is sampled. */
  public void record(long fingerprint, boolean hit) {
    if (!sampled(fingerprint)) {
      return;
    }
    long sample = fingerprint << 1 | (hit ? 1 : 0);
    rings[(int) Thread.currentThread().getId() & (STRIPES - 1)].add(sample == 0 ? 2 : sample);
  }

  /**
   * Hands the samples recorded since the last drain to {@code sink}, ring by ring, each ring's oldest first, as
   * {@link #key} and {@link #hit} decode them; those overwritten before this drain are lost, and one whose writer has
   * not finished yet is left for the next drain (with those after it in its ring).
   *
   * @return the samples handed over
   */
  public int drain(SampleSink sink) {
    int handed = 0;
    for (Ring ring : rings) {
      handed += ring.drain(sink);
    }
    return handed;
  }

  /** The key a sample carries: the fingerprint without its top bit. */
  static long key(long sample) {
    return sample >>> 1;
  }

  /** Whether a sample's lookup found the key. */
  static boolean hit(long sample) {
    return (sample & 1) != 0;
  }

  /** Receives drained samples. */
  @FunctionalInterface
  public interface SampleSink {
    /** One sampled lookup of {@code key} that found it ({@code hit}) or not. */
    void accept(long key, boolean hit);
  }

  /** A mix of the fingerprint, so that sampling stays independent of how the index placed the key. */
  private static long mix(long x) {
    x = (x ^ (x >>> 33)) * 0xff51afd7ed558ccdL;
    x = (x ^ (x >>> 33)) * 0xc4ceb9fe1a85ec53L;
    return x ^ (x >>> 33);
  }

  /** One lossy ring: any number of writers, one drainer at a time. */
  private static final class Ring {
    private static final VarHandle NEXT;

    static {
      try {
        NEXT = MethodHandles.lookup().findVarHandle(Ring.class, "next", long.class);
      } catch (ReflectiveOperationException e) {
        throw new ExceptionInInitializerError(e);
      }
    }

    private final AtomicLongArray slots = new AtomicLongArray(STRIPE_CAPACITY);
    /** Next position a writer takes; advanced through {@link #NEXT}. */
    @SuppressWarnings("unused") // accessed through NEXT
    private volatile long next;
    /** Next position the drainer reads; only the draining thread touches it. */
    private long read;

    void add(long sample) {
      long position = (long) NEXT.getAndAdd(this, 1L);
      slots.setRelease((int) (position & (STRIPE_CAPACITY - 1)), sample);
    }

    int drain(SampleSink sink) {
      long end = (long) NEXT.getAcquire(this);
      if (end - read > STRIPE_CAPACITY) {
        read = end - STRIPE_CAPACITY;
      }
      int handed = 0;
      while (read < end) {
        int position = (int) (read & (STRIPE_CAPACITY - 1));
        long sample = slots.getAcquire(position);
        if (sample == 0) {
          break;
        }
        slots.setRelease(position, 0);
        read++;
        handed++;
        sink.accept(key(sample), hit(sample));
      }
      return handed;
    }
  }
}
