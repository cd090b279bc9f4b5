package dev.blockcache.l1.tinylfu;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.benmanes.caffeine.cache.Caffeine;
import org.junit.jupiter.api.Test;

/** An older Caffeine fails the cache's construction with a message naming what is needed. */
class CaffeineRequirementTest {
  /** Stands for Caffeine 2.x's builder: no {@code evictionListener}. */
  static final class Caffeine2Builder {
  }

  @Test
  void aBuilderWithoutEvictionListenerIsRefusedNamingTheVersionNeeded() {
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> CaffeineRequirement.check(Caffeine2Builder.class));
    assertTrue(e.getMessage().contains("needs Caffeine 3.0 or later"), e.getMessage());
    assertTrue(e.getMessage().contains("2.8.1"), e.getMessage());
  }

  @Test
  void theCaffeineOnOurClasspathPasses() {
    CaffeineRequirement.check(Caffeine.class);
  }
}
