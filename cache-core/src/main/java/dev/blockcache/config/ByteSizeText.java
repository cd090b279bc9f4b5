package dev.blockcache.config;

import java.util.Locale;

/**
 * Sizes written as people write them in configuration and on command lines: a whole number of bytes with an
 * optional {@code k}, {@code m}, {@code g} or {@code t} suffix (powers of 1024, case-insensitive), as {@code -Xmx}
 * and {@code hfile.block.cache.memory.size} take them: {@code 65536}, {@code 64k}, {@code 10g}.
 *
 * <p>Thread-safety: stateless.
 */
public final class ByteSizeText {
  private ByteSizeText() {}

  /**
   * The bytes {@code text} stands for.
   *
   * @param key the key or argument the text came from, named in the error
   * @throws ConfigException naming {@code key}, the text and the accepted form unless it is a size of at least 1
   */
  public static long parse(String key, String text) {
    String digits = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
    int shift = 0;
    if (!digits.isEmpty()) {
      int unit = "kmgt".indexOf(digits.charAt(digits.length() - 1));
      if (unit >= 0) {
        shift = 10 * (unit + 1);
        digits = digits.substring(0, digits.length() - 1).trim();
      }
    }
    try {
      long number = Long.parseLong(digits);
      if (number > 0 && number <= (Long.MAX_VALUE >> shift)) {
        return number << shift;
      }
    } catch (NumberFormatException e) {
      // reported below with the key
    }
    throw new ConfigException(key, text, "a positive size in bytes with an optional k, m, g or t suffix (powers of"
        + " 1024), e.g. 10g");
  }
}
