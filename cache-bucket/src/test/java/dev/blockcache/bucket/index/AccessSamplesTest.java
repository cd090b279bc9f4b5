package dev.blockcache.bucket.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** The lookup sample ring: which keys it samples, what a drain hands over, and what it loses when lapped. */
class AccessSamplesTest {
  @Test
  void samplesNothingUntilARateIsSet() {
    AccessSamples samples = new AccessSamples();
    for (long fp = 1; fp <= 1000; fp++) {
      samples.record(fp, true);
    }
    assertEquals(0, samples.drain((key, hit) -> { }));
  }

  @Test
  void handsOverEverySampleInOrderWithItsHitBit() {
    AccessSamples samples = new AccessSamples();
    samples.setRate(AccessSamples.RATE_SCALE);
    for (long fp = 0; fp < 100; fp++) {
      samples.record(fp, fp % 3 == 0);
    }
    List<Long> keys = new ArrayList<>();
    List<Boolean> hits = new ArrayList<>();
    assertEquals(100, samples.drain((key, hit) -> {
      keys.add(key);
      hits.add(hit);
    }));
    for (int i = 1; i < 100; i++) {
      assertEquals(i, keys.get(i), "oldest first");
      assertEquals(i % 3 == 0, hits.get(i));
    }
    assertEquals(0, samples.drain((key, hit) -> { }), "a drain takes each sample once");
  }

  @Test
  void samplesAboutTheRateOfKeysAndAlwaysTheSameOnes() {
    AccessSamples samples = new AccessSamples();
    samples.setRate(AccessSamples.RATE_SCALE / 16);
    Random random = new Random(7);
    int sampled = 0;
    int keys = 200_000;
    for (int i = 0; i < keys; i++) {
      long fp = random.nextLong();
      boolean first = samples.sampled(fp);
      assertEquals(first, samples.sampled(fp), "a key is sampled on every lookup or on none");
      sampled += first ? 1 : 0;
    }
    assertEquals(keys / 16.0, sampled, keys / 16.0 * 0.05, "one key in 16");
  }

  @Test
  void aLappedRingKeepsTheNewestSamples() { // one thread writes one ring
    AccessSamples samples = new AccessSamples();
    samples.setRate(AccessSamples.RATE_SCALE);
    int recorded = AccessSamples.STRIPE_CAPACITY + 100;
    for (long fp = 1; fp <= recorded; fp++) {
      samples.record(fp, false);
    }
    List<Long> keys = new ArrayList<>();
    assertEquals(AccessSamples.STRIPE_CAPACITY, samples.drain((key, hit) -> keys.add(key)));
    assertEquals(101, keys.get(0));
    assertEquals(recorded, keys.get(keys.size() - 1));
  }

  @Test
  void rejectsARateOutsideItsScale() {
    AccessSamples samples = new AccessSamples();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> samples.setRate(AccessSamples.RATE_SCALE + 1));
    assertTrue(e.getMessage().contains("65537"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> samples.setRate(-1));
  }

  /** Four recording threads and one draining thread: every sample handed over is one that was recorded. */
  @Test
  void concurrentRecordersNeverHandOverASampleThatWasNotRecorded() throws Exception {
    AccessSamples samples = new AccessSamples();
    samples.setRate(AccessSamples.RATE_SCALE);
    int threads = 4;
    int perThread = 200_000;
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> recorders = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      long base = (t + 1L) << 32;
      Thread thread = new Thread(() -> {
        try {
          start.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
        for (long i = 0; i < perThread; i++) {
          samples.record(base + i, (i & 1) == 0);
        }
      });
      thread.start();
      recorders.add(thread);
    }
    Set<String> errors = new HashSet<>();
    long[] handed = new long[1];
    boolean done = false;
    AccessSamples.SampleSink check = (key, hit) -> {
      long thread = key >>> 32;
      long i = key & 0xFFFF_FFFFL;
      if (thread < 1 || thread > threads || i >= perThread || hit != ((i & 1) == 0)) {
        errors.add(Long.toHexString(key) + " " + hit);
      }
      handed[0]++;
    };
    start.countDown();
    while (!done) {
      samples.drain(check);
      done = recorders.stream().noneMatch(Thread::isAlive);
    }
    for (Thread thread : recorders) {
      thread.join();
    }
    samples.drain(check);
    assertTrue(errors.isEmpty(), "samples that were never recorded: " + errors);
    assertTrue(handed[0] > 0 && handed[0] <= (long) threads * perThread, "handed " + handed[0]);
    assertFalse(samples.drain(check) > 0, "nothing left after the last drain");
  }
}
