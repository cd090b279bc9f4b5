package dev.blockcache.bucket.policy;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The admission rule's arithmetic, without a cache: frequency plus bias against the victims, and the multi margin. */
class FrequencyEvictionTest {
  @Test
  void theMultiMarginIsMoreThanTwo() {
    assertFalse(FrequencyEviction.multiGives(2, 3));
    assertFalse(FrequencyEviction.multiGives(2, 4));
    assertTrue(FrequencyEviction.multiGives(2, 5));
    assertTrue(FrequencyEviction.multiGives(0, 3));
  }

  @Test
  void theRuleComparesFrequencyPlusBiasWithTheVictims() {
    assertTrue(FrequencyEviction.admits(0, 0, 0));
    assertTrue(FrequencyEviction.admits(4, 3, 0));
    assertFalse(FrequencyEviction.admits(3, 3, 0));
    assertTrue(FrequencyEviction.admits(3, 3, 1));
    assertFalse(FrequencyEviction.admits(5, 3, -2));
    assertTrue(FrequencyEviction.admits(6, 3, -2));
  }
}
