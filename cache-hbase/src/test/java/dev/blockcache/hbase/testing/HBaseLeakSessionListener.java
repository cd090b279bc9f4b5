package dev.blockcache.hbase.testing;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Installs {@link HBaseLeakRecorder} when the JUnit launcher session opens, before any test loads HBase's
 * {@code RefCnt}. Registered through {@code META-INF/services}, beside cache-core's listener for our own netty.
 *
 * <p>Thread-safety: called by the launcher only.
 */
public final class HBaseLeakSessionListener implements LauncherSessionListener {
  @Override
  public void launcherSessionOpened(LauncherSession session) {
    HBaseLeakRecorder.install();
  }
}
