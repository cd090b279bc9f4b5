package dev.blockcache.config;

import java.util.Locale;
import java.util.function.Function;

/**
 * Typed reads of single keys from an hbase-site.xml's key-value pairs (a Hadoop {@code Configuration}'s {@code get}): every value is trimmed, an absent or blank key
 * yields the default, and a value that does not parse is a {@link ConfigException} naming the key, the value and
 * the form accepted. Range checks are left to the config objects.
 *
 * <p>Each config object reads its own keys from a {@code SiteValues} ({@link LruConfig#read}, the L2's reader in
 * {@code cache-bucket}); the hbase-site reader only decides which tiers to read.
 *
 * <p>Thread-safety: stateless; as safe for concurrent reads as the lookup it wraps.
 */
public final class SiteValues {
  private final Function<String, String> lookup;

  /** Values from {@code lookup}, which returns a key's raw value or null when the key is absent. */
  public SiteValues(Function<String, String> lookup) {
    this.lookup = lookup;
  }

  /** The trimmed value, or null when the key is absent or blank. */
  public String text(String key) {
    String value = lookup.apply(key);
    value = value == null ? null : value.trim();
    return value == null || value.isEmpty() ? null : value;
  }

  public float fraction(String key, float defaultValue) {
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

  public long integer(String key, long defaultValue) {
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

  public int smallInteger(String key, int defaultValue) {
    long value = integer(key, defaultValue);
    if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
      throw new ConfigException(key, value, "a whole number below 2^31");
    }
    return (int) value;
  }

  public boolean bool(String key, boolean defaultValue) {
    String value = text(key);
    if (value == null) {
      return defaultValue;
    }
    return switch (value.toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> throw new ConfigException(key, value, "true or false");
    };
  }

  /** A size in bytes, as a number with an optional k, m, g or t suffix (powers of 1024); -1 when absent. */
  public long bytes(String key) {
    String value = text(key);
    return value == null ? -1 : ByteSizeText.parse(key, value);
  }

  /** A comma-separated list of whole numbers; null when absent. */
  public int[] integers(String key) {
    String value = text(key);
    if (value == null) {
      return null;
    }
    String[] parts = value.split(",", 0); // limit 0: a trailing comma is ignored, as Hadoop's Configuration.getInts does
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
