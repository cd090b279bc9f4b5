package dev.blockcache.sizing;

import dev.blockcache.config.ConfigException;
import java.util.Locale;

/**
 * Sizes as a person writes and reads them: parsed from {@code -Xmx}-style text ({@code 32g}, {@code 4096m},
 * {@code 65536}: a whole number with an optional k, m, g or t suffix, powers of 1024) and printed with a binary unit
 * and three significant figures ({@code 6.40 GiB}).
 *
 * <p>Thread-safety: stateless.
 */
public final class ByteSizes {
  private static final String[] UNITS = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};

  private ByteSizes() {}

  /**
   * The bytes {@code text} stands for.
   *
   * @param name the argument or key the text came from, named in the error
   * @throws ConfigException naming {@code name}, the text and the accepted form when it is not a size of at least 1
   */
  public static long parse(String name, String text) {
    String digits = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
    int shift = 0;
    if (!digits.isEmpty()) {
      int unit = "kmgt".indexOf(digits.charAt(digits.length() - 1));
      if (unit >= 0) {
        shift = 10 * (unit + 1);
        digits = digits.substring(0, digits.length() - 1);
      }
    }
    try {
      long number = Long.parseLong(digits);
      if (number > 0 && number <= (Long.MAX_VALUE >> shift)) {
        return number << shift;
      }
    } catch (NumberFormatException e) {
      // reported below with the name
    }
    throw new ConfigException(name, text,
        "a size of at least 1 byte: a whole number with an optional k, m, g or t suffix (powers of 1024), e.g. 32g");
  }

  /** {@code bytes} exactly, then with a binary unit: {@code 1,099,520,016,384 bytes (1.00 TiB)}. */
  public static String exact(long bytes) {
    return String.format(Locale.ROOT, "%,d bytes (%s)", bytes, format(bytes));
  }

  /** {@code bytes} with a binary unit: {@code 512 B}, {@code 64.0 KiB}, {@code 6.40 GiB}, {@code 1.50 TiB}. */
  public static String format(long bytes) {
    if (Math.abs(bytes) < 1024) {
      return bytes + " B";
    }
    double value = bytes;
    int unit = 0;
    while (Math.abs(value) >= 1024 && unit < UNITS.length - 1) {
      value /= 1024;
      unit++;
    }
    String pattern = Math.abs(value) >= 100 ? "%.0f %s" : Math.abs(value) >= 10 ? "%.1f %s" : "%.2f %s";
    return String.format(Locale.ROOT, pattern, value, UNITS[unit]);
  }
}
