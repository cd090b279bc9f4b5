package dev.blockcache.bucket.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.bucket.index.AccessSamples;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The LRU reference on synthetic lookups: a cache of {@value #BLOCKS} blocks (replayed whole) whose own hits the test
 * sets against what an LRU of the same size hits on the same keys.
 */
class RecencyReferenceTest {
  private static final int BLOCKS = 200;

  /** How the simulated cache hits, given whether an LRU of its size hit. */
  private interface CacheBehaviour {
    boolean hit(boolean lruHit, Random random);
  }

  /** Feeds {@code lookups} lookups of keys spread over twice the cache, draining every 1,024. */
  private static void feed(RecencyReference reference, AccessSamples samples, CacheBehaviour behaviour,
      int lookups) {
    Map<Long, Boolean> lru = new LinkedHashMap<>(16, 0.75f, true) {
      private static final long serialVersionUID = 1L;

      @Override
      protected boolean removeEldestEntry(Map.Entry<Long, Boolean> eldest) {
        return size() > BLOCKS;
      }
    };
    Random random = new Random(5);
    update(reference, samples, BLOCKS);
    for (int i = 0; i < lookups; i++) {
      long key = random.nextInt(2 * BLOCKS) + 1L;
      boolean lruHit = lru.get(key) != null;
      if (!lruHit) {
        lru.put(key, Boolean.TRUE);
      }
      samples.record(key, behaviour.hit(lruHit, random));
      if (i % 1024 == 0) {
        update(reference, samples, BLOCKS);
      }
    }
    update(reference, samples, BLOCKS);
  }

  /** What the owner does at each check: the rate for {@code blocks}, then the samples drained into the reference. */
  private static void update(RecencyReference reference, AccessSamples samples, long blocks) {
    reference.resample(blocks);
    samples.drain(reference);
  }

  @Test
  void aCacheThatHitsWhatLruHitsNeverGrowsTheWindow() {
    AccessSamples samples = new AccessSamples();
    RecencyReference reference = new RecencyReference(samples);
    feed(reference, samples, (lruHit, random) -> lruHit, 16_384);
    assertFalse(reference.growNow(), reference.toString());
    assertEquals(AccessSamples.RATE_SCALE, samples.rate(), "a cache this small is replayed whole");
  }

  @Test
  void aSmallLeadIsLeftToTheClimber() {
    AccessSamples samples = new AccessSamples();
    RecencyReference reference = new RecencyReference(samples);
    // LRU hits about half of these lookups: missing a tenth of them is a lead of about 5 points.
    feed(reference, samples, (lruHit, random) -> lruHit && random.nextInt(10) != 0, 16_384);
    assertFalse(reference.growNow(), reference.toString());
  }

  @Test
  void aClearLeadOverTheSampleStepsTheClimberUpAtItsEnd() {
    AccessSamples samples = new AccessSamples();
    RecencyReference reference = new RecencyReference(samples);
    feed(reference, samples, (lruHit, random) -> lruHit && random.nextInt(10) != 0, 16_384); // about 5 points
    assertTrue(reference.ledTheSample(), reference.toString());
    reference.sampleEnded();
    assertFalse(reference.ledTheSample(), "the count starts anew with the next sample");
  }

  @Test
  void aLeadOfAPointOrNoneLeavesTheSampleToTheClimber() {
    AccessSamples samples = new AccessSamples();
    RecencyReference reference = new RecencyReference(samples);
    feed(reference, samples, (lruHit, random) -> lruHit && random.nextInt(50) != 0, 16_384); // about 1 point
    assertFalse(reference.ledTheSample(), reference.toString());
    reference.sampleEnded();
    feed(reference, samples, (lruHit, random) -> lruHit, 16_384);
    assertFalse(reference.ledTheSample(), reference.toString());
  }

  @Test
  void aFarLeadGrowsTheWindowOncePerSampleAndAgainOnlyIfGrowingClosedSomeOfIt() {
    AccessSamples samples = new AccessSamples();
    RecencyReference reference = new RecencyReference(samples);
    CacheBehaviour missesAll = (lruHit, random) -> false; // a lead of about 50 points
    feed(reference, samples, missesAll, 4096);
    assertTrue(reference.growNow(), reference.toString());
    feed(reference, samples, missesAll, 4096);
    assertFalse(reference.growNow(), "once per climber sample");
    reference.sampleEnded();
    feed(reference, samples, missesAll, 4096);
    assertFalse(reference.growNow(), "the lead did not shrink: growing did not close it");
    reference.sampleEnded();
    // A lead of about 30 points: below 0.7 of the last growth's, above the growth threshold.
    feed(reference, samples, (lruHit, random) -> lruHit && random.nextInt(5) < 2, 4096);
    assertTrue(reference.growNow(), reference.toString());
  }

  @Test
  void aSampleWithoutALeadForgetsTheLastGrowth() {
    AccessSamples samples = new AccessSamples();
    RecencyReference reference = new RecencyReference(samples);
    feed(reference, samples, (lruHit, random) -> false, 4096);
    assertTrue(reference.growNow());
    reference.sampleEnded();
    feed(reference, samples, (lruHit, random) -> lruHit, 4096);
    reference.sampleEnded();
    feed(reference, samples, (lruHit, random) -> false, 4096);
    assertTrue(reference.growNow(), "the same lead grows the window again once a sample showed none");
  }

  @Test
  void aCacheOfMoreBlocksThanTheShadowIsSampled() {
    AccessSamples samples = new AccessSamples();
    RecencyReference reference = new RecencyReference(samples);
    update(reference, samples, 64L * RecencyReference.SHADOW_ENTRIES);
    assertEquals(AccessSamples.RATE_SCALE / 64, samples.rate());
  }
}
