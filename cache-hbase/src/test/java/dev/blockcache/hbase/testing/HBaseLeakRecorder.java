package dev.blockcache.hbase.testing;

import dev.blockcache.testing.CollectedGarbage;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hbase.thirdparty.io.netty.util.ResourceLeakDetector;
import org.apache.hbase.thirdparty.io.netty.util.ResourceLeakDetectorFactory;
import org.apache.hbase.thirdparty.io.netty.util.ResourceLeakTracker;

/**
 * The leak recorder for HBase's relocated netty ({@code org.apache.hbase.thirdparty.io.netty}): HBase's
 * {@code RefCnt}, behind every {@code ByteBuff} and so every block this module returns to HBase, creates its detector
 * from this factory, so a block HBase never released is recorded here. Installed by {@link HBaseLeakSessionListener}
 * before any HBase class loads.
 *
 * <p>Thread-safety: safe for concurrent use.
 */
public final class HBaseLeakRecorder extends ResourceLeakDetectorFactory {
  private static final HBaseLeakRecorder INSTANCE = new HBaseLeakRecorder();
  private static volatile boolean installed;

  private final List<String> leaks = new CopyOnWriteArrayList<>();
  private final List<ResourceLeakDetector<?>> detectors = new CopyOnWriteArrayList<>();

  private HBaseLeakRecorder() {}

  /** Installs the recording factory at PARANOID; idempotent. */
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

  /** Collects garbage once ({@link CollectedGarbage}), polls every detector, and returns (and forgets) the leaks. */
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

  /** Required by the abstract factory; the deprecated {@code maxActive} bound is ignored. */
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
        leaks.add("HBASE LEAK: " + resourceType + " was garbage-collected without release()" + records);
      }

      @Override
      protected void reportUntracedLeak(String resourceType) {
        leaks.add("HBASE LEAK: " + resourceType + " was garbage-collected without release()");
      }
    };
    detectors.add(detector);
    return detector;
  }
}
