package dev.blockcache.testing;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Installs {@link LeakRecorder} when the JUnit launcher session opens, before any test class loads a netty buffer.
 * Registered through {@code META-INF/services}, so every module whose tests have cache-core's test jar on the
 * class path gets it.
 *
 * <p>Thread-safety: called by the launcher only.
 */
public final class LeakCheckSessionListener implements LauncherSessionListener {
  @Override
  public void launcherSessionOpened(LauncherSession session) {
    LeakRecorder.install();
  }
}
