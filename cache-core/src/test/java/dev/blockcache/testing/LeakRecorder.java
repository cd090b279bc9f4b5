package dev.blockcache.testing;

import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import io.netty.util.ResourceLeakTracker;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A netty leak-detector factory whose detectors record every leak they report, so that a test can fail on it
 * instead of a log line going unnoticed. Installed once per test JVM by {@link LeakCheckSessionListener}, before any
 * netty buffer class creates its detector.
 *
 * <p>Thread-safety: safe for concurrent use.
 */
public final class LeakRecorder extends ResourceLeakDetectorFactory {
  private static final LeakRecorder INSTANCE = new LeakRecorder();
  private static volatile boolean installed;

  private final List<String> leaks = new CopyOnWriteArrayList<>();
  private final List<ResourceLeakDetector<?>> detectors = new CopyOnWriteArrayList<>();

  private LeakRecorder() {}

  /** Installs the recording factory; idempotent. Must run before netty's allocators are first used. */
  public static synchronized void install() {
    if (!installed) {
      ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
      ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(INSTANCE);
      installed = true;
    }
  }

  public static boolean isInstalled() {
    return installed;
  }

  /**
   * Collects garbage once ({@link CollectedGarbage}), makes every detector process its queue of
   * collected-but-unreleased resources, and returns (and forgets) the leaks reported so far.
   */
  public static List<String> drainLeaks() {
    CollectedGarbage.collect();
    INSTANCE.poll();
    List<String> found = new ArrayList<>(INSTANCE.leaks);
    INSTANCE.leaks.removeAll(found);
    return found;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private void poll() {
    Object probe = new Object();
    for (ResourceLeakDetector detector : detectors) {
      ResourceLeakTracker tracker = detector.track(probe);
      if (tracker != null) {
        tracker.close(probe);
      }
    }
  }

  /** Required by the abstract factory; netty deprecates the {@code maxActive} bound, which is ignored. */
  @Override
  @Deprecated
  @SuppressWarnings("InlineMeSuggester") // an override of netty's deprecated method, not an API of ours to inline
  public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval, long maxActive) {
    return newResourceLeakDetector(resource, samplingInterval);
  }

  @Override
  public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval) {
    ResourceLeakDetector<T> detector = new ResourceLeakDetector<T>(resource, samplingInterval) {
      @Override
      protected void reportTracedLeak(String resourceType, String records) {
        // Recorded, not logged: the failing test's message carries the records.
        leaks.add("LEAK: " + resourceType + " was garbage-collected without release()" + records);
      }

      @Override
      protected void reportUntracedLeak(String resourceType) {
        leaks.add("LEAK: " + resourceType + " was garbage-collected without release()");
      }
    };
    detectors.add(detector);
    return detector;
  }
}
