package dev.blockcache.config;

import java.util.Locale;
import org.apache.hadoop.conf.Configuration;

/**
 * Typed reads of single keys from a Hadoop {@link Configuration}: every value is trimmed, an absent or blank key
 * yields the default, and a value that does not parse is a {@link ConfigException} naming the key, the value and
 * the form accepted. Range checks are left to the config objects.
 *
 * <p>Thread-safety: stateless; {@link Configuration} itself is safe for concurrent reads.
 */
final class SiteValues {
  private final Configuration conf;

  SiteValues(Configuration conf) {
    this.conf = conf;
  }

  /** The trimmed value, or null when the key is absent or blank. */
  String text(String key) {
    String value = conf.getTrimmed(key);
    return value == null || value.isEmpty() ? null : value;
  }

  float fraction(String key, float defaultValue) {
    String value = text(key);
    if (value == null) {
      return defaultValue;
    }
    try {
      float parsed = Float.parseFloat(value);
      if (Float.isFinite(parsed)) {
        return parsed;
      }
    } catch (NumberFormatException e) {
      // reported below with the key
    }
    throw new ConfigException(key, value, "a decimal number such as 0.25");
  }

  long integer(String key, long defaultValue) {
    String value = text(key);
    if (value == null) {
      return defaultValue;
    }
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new ConfigException(key, value, "a whole number");
    }
  }

  int smallInteger(String key, int defaultValue) {
    long value = integer(key, defaultValue);
    if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
      throw new ConfigException(key, value, "a whole number below 2^31");
    }
    return (int) value;
  }

  boolean bool(String key, boolean defaultValue) {
    String value = text(key);
    if (value == null) {
      return defaultValue;
    }
    switch (value.toLowerCase(Locale.ROOT)) {
      case "true":
        return true;
      case "false":
        return false;
      default:
        throw new ConfigException(key, value, "true or false");
    }
  }

  /** A size in bytes, as a number with an optional k, m, g or t suffix (powers of 1024); -1 when absent. */
  long bytes(String key) {
    String value = text(key);
    return value == null ? -1 : ByteSizeText.parse(key, value);
  }

  /** A comma-separated list of whole numbers; null when absent. */
  int[] integers(String key) {
    String value = text(key);
    if (value == null) {
      return null;
    }
    String[] parts = value.split(",");
    int[] numbers = new int[parts.length];
    for (int i = 0; i < parts.length; i++) {
      try {
        numbers[i] = Integer.parseInt(parts[i].trim());
      } catch (NumberFormatException e) {
        throw new ConfigException(key, value, "a comma-separated list of whole numbers ('" + parts[i].trim()
            + "' is not one)");
      }
    }
    return numbers;
  }
}
