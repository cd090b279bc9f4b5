package dev.blockcache.hbase.testing;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test when HBase's leak detector reports a {@code ByteBuff} (a block returned to HBase, or one HBase
 * allocated) that was garbage-collected without release. Our own netty's leaks are cache-core's
 * {@code LeakCheckExtension}'s, which runs for every test too.
 *
 * <p>Thread-safety: called by JUnit only.
 */
public final class HBaseLeakCheck implements AfterEachCallback {
  @Override
  public void afterEach(ExtensionContext context) {
    if (!HBaseLeakRecorder.isInstalled()) {
      fail("HBaseLeakRecorder is not installed: HBase's leaks would go unseen");
    }
    List<String> leaks = HBaseLeakRecorder.drainLeaks();
    if (!leaks.isEmpty()) {
      fail(leaks.size() + " HBase buffer leak(s) detected after " + context.getDisplayName() + ":\n"
          + String.join("\n", leaks));
    }
  }
}
