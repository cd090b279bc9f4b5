package dev.blockcache.testing;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One grep-able line of figures per test case, {@code RELIABILITY|test|case|name=value|...}, from which the
 * reliability suite's long-run report {@code docs/results/reliability-long.md} is filled ({@code grep '^RELIABILITY|'}
 * over the build's output; see docs/reliability.md).
 *
 * <p>Thread-safety: not thread-safe; one per test case, filled and printed by the test thread.
 */
public final class Figures {
  private final String test;
  private final String name;
  private final Map<String, Object> values = new LinkedHashMap<>();

  public Figures(String test, String name) {
    this.test = test;
    this.name = name;
  }

  /** Adds a figure; returns this. */
  public Figures put(String key, Object value) {
    values.put(key, value);
    return this;
  }

  /** Prints the line on standard output and returns it. */
  public String print() {
    StringBuilder line = new StringBuilder("RELIABILITY|").append(test).append('|').append(name);
    values.forEach((k, v) -> line.append('|').append(k).append('=').append(v));
    System.out.println(line);
    return line.toString();
  }
}
