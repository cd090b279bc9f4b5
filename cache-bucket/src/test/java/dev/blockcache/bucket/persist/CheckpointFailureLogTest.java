package dev.blockcache.bucket.persist;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;

/**
 * Pins that a checkpoint failing every interval cannot flood the log: one WARN at the first failure, then at most one
 * per {@link CheckpointFailureLog#INTERVAL_MS}, and one INFO when a checkpoint succeeds again.
 */
class CheckpointFailureLogTest {
  private final List<String> lines = new ArrayList<>();
  private final Logger logger = (Logger) Proxy.newProxyInstance(Logger.class.getClassLoader(),
      new Class<?>[] {Logger.class}, (proxy, method, args) -> {
        if (method.getName().equals("warn") || method.getName().equals("info")) {
          lines.add(method.getName());
        }
        return method.getReturnType() == boolean.class ? Boolean.TRUE : null;
      });

  @Test
  void aCheckpointFailingEverySecondForTenMinutesLogsTenWarnings() {
    AtomicLong clock = new AtomicLong(0);
    CheckpointFailureLog log = new CheckpointFailureLog(logger, Path.of("/data/index"), clock::get);
    for (int second = 0; second < 600; second++) {
      log.failed(new IOException("No space left on device"));
      clock.addAndGet(1000);
    }
    assertEquals(10, lines.stream().filter("warn"::equals).count());
    log.succeeded();
    assertEquals("info", lines.get(lines.size() - 1));
    log.failed(new IOException("again"));
    assertEquals("warn", lines.get(lines.size() - 1), "the first failure after a success is logged at once");
  }
}
