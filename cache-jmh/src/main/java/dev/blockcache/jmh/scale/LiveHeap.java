package dev.blockcache.jmh.scale;

import java.lang.management.ManagementFactory;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * Bytes of live objects on the heap, as the JVM's {@code GC.class_histogram} diagnostic command counts them (after a
 * full GC of its own): its "Total" line.
 *
 * <p>Thread-safety: stateless.
 */
final class LiveHeap {
  private LiveHeap() {}

  static long bytes() {
    try {
      String histogram = (String) ManagementFactory.getPlatformMBeanServer().invoke(
          new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
          new Object[] {new String[0]}, new String[] {String[].class.getName()});
      for (String line : histogram.split("\n", -1)) {
        String[] parts = line.trim().split("\\s+", -1);
        if (parts.length == 3 && parts[0].equals("Total")) {
          return Long.parseLong(parts[2]);
        }
      }
      throw new IllegalStateException("no Total line in the class histogram");
    } catch (JMException e) {
      throw new IllegalStateException("class histogram unavailable", e);
    }
  }
}
