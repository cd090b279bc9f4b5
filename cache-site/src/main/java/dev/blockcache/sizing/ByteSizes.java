package dev.blockcache.sizing;

import java.util.Locale;

/**
 * Sizes as a person reads them: printed with a binary unit and three significant figures ({@code 6.40 GiB}).
 * ({@link dev.blockcache.config.ByteSizeText} parses them.)
 *
 * <p>Thread-safety: stateless.
 */
public final class ByteSizes {
  private static final String[] UNITS = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};

  private ByteSizes() {}

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
    // 1023.5 rather than 1024: what would print as "1024 MiB" prints as "1.00 GiB".
    while (Math.abs(value) >= 1023.5 && unit < UNITS.length - 1) {
      value /= 1024;
      unit++;
    }
    String pattern = Math.abs(value) >= 100 ? "%.0f %s" : Math.abs(value) >= 10 ? "%.1f %s" : "%.2f %s";
    return String.format(Locale.ROOT, pattern, value, UNITS[unit]);
  }
}
