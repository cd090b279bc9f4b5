package dev.blockcache.testing;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test when netty's leak detector (at PARANOID) reports a buffer that was garbage-collected without being
 * released. Registered for every test by JUnit's extension auto-detection ({@code junit-platform.properties} and
 * {@code META-INF/services}).
 *
 * <p>A leak is found when the garbage collector has collected the leaked buffer, which this extension forces after
 * each test; a leak is therefore reported in the test that made it, or at the latest in a later test of the same JVM.
 *
 * <p>Thread-safety: called by JUnit only.
 */
public final class LeakCheckExtension implements AfterEachCallback {
  @Override
  public void afterEach(ExtensionContext context) {
    if (!LeakRecorder.isInstalled()) {
      fail("LeakRecorder is not installed: LeakCheckSessionListener did not run, so leaks would go unseen");
    }
    List<String> leaks = LeakRecorder.drainLeaks();
    if (!leaks.isEmpty()) {
      fail(leaks.size() + " buffer leak(s) detected after " + context.getDisplayName() + ":\n"
          + String.join("\n", leaks));
    }
  }
}
