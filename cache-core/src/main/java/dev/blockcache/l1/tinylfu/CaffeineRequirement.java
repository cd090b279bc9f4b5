package dev.blockcache.l1.tinylfu;

import com.github.benmanes.caffeine.cache.RemovalListener;
import java.security.CodeSource;

/**
 * The Caffeine version {@link TinyLfuBlockCache} needs (3.0 or later: it uses {@code Caffeine.evictionListener}),
 * checked when a cache is built, so that an older Caffeine on the classpath fails there with a message that says
 * what to change instead of a {@link NoSuchMethodError} at the first insert. HBase 2.6 depends on Caffeine 2.8.1, and
 * Maven's nearest-wins picks it in a project that declares HBase before this library.
 *
 * <p>Thread-safety: stateless.
 */
final class CaffeineRequirement {
  /** The oldest Caffeine that has every method the cache calls. */
  static final String MINIMUM = "3.0";

  private CaffeineRequirement() {}

  /**
   * Checks that {@code builderClass} (Caffeine's {@code Caffeine} as loaded) has the 3.x builder methods.
   *
   * @throws IllegalStateException naming the version found, where it was loaded from, and the version needed
   */
  static void check(Class<?> builderClass) {
    try {
      builderClass.getMethod("evictionListener", RemovalListener.class);
    } catch (NoSuchMethodException tooOld) {
      throw new IllegalStateException("TinyLfuBlockCache needs Caffeine " + MINIMUM + " or later "
          + "(com.github.ben-manes.caffeine:caffeine), but the classpath has Caffeine " + versionOf(builderClass)
          + " from " + locationOf(builderClass) + ", which lacks Caffeine.evictionListener. HBase 2.6 brings "
          + "Caffeine 2.8.1: declare caffeine 3.x in your own build (Maven takes the nearest declaration).", tooOld);
    }
  }

  private static String versionOf(Class<?> c) {
    Package p = c.getPackage();
    String version = p == null ? null : p.getImplementationVersion();
    return version == null ? "(version unknown)" : version;
  }

  private static String locationOf(Class<?> c) {
    CodeSource source = c.getProtectionDomain().getCodeSource();
    return source == null || source.getLocation() == null ? "an unknown location" : source.getLocation().toString();
  }
}
