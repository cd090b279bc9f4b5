package dev.blockcache.config;

/**
 * Range checks shared by the config objects; each failure is a {@link ConfigException} naming key, value and range.
 *
 * <p>Thread-safety: stateless.
 */
public final class Checks {
  private Checks() {}

  /** {@code value} in {@code (0, 1]}. */
  public static float fraction(String key, float value) {
    if (!(value > 0f && value <= 1f)) {
      throw new ConfigException(key, value, "a fraction in (0, 1]");
    }
    return value;
  }

  /** {@code value} in {@code [0, 1]}. */
  public static float share(String key, float value) {
    if (!(value >= 0f && value <= 1f)) {
      throw new ConfigException(key, value, "a share in [0, 1]");
    }
    return value;
  }

  /** {@code value} at least {@code min}. */
  public static long atLeast(String key, long value, long min) {
    if (value < min) {
      throw new ConfigException(key, value, "an integer >= " + min);
    }
    return value;
  }

  /** {@code value} in {@code [min, max]}. */
  public static long between(String key, long value, long min, long max) {
    if (value < min || value > max) {
      throw new ConfigException(key, value, "an integer in [" + min + ", " + max + "]");
    }
    return value;
  }

  /** Shares that must add up to 1 (within float rounding). */
  public static void sumToOne(String[] keys, float[] values) {
    float sum = 0f;
    StringBuilder given = new StringBuilder();
    for (int i = 0; i < values.length; i++) {
      sum += values[i];
      given.append(i == 0 ? "" : " + ").append(keys[i]).append('=').append(values[i]);
    }
    if (Math.abs(sum - 1f) > 1e-4f) {
      throw new ConfigException(String.join(" + ", keys), given + " = " + sum, "shares that sum to 1.0");
    }
  }
}
