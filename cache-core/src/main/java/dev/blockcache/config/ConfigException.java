package dev.blockcache.config;

/**
 * A configuration value that cannot be used. The message always names the key, the value given and what is
 * accepted, e.g. {@code hbase.lru.blockcache.min.factor=1.5 is not accepted: a fraction in (0, 1]}.
 *
 * <p>Thread-safety: immutable.
 */
public final class ConfigException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String key;
  private final String value;
  private final String accepted;

  public ConfigException(String key, Object value, String accepted) {
    super(key + "=" + value + " is not accepted: " + accepted);
    this.key = key;
    this.value = String.valueOf(value);
    this.accepted = accepted;
  }

  /** The configuration key at fault. */
  public String key() {
    return key;
  }

  /** The value given, as text. */
  public String value() {
    return value;
  }

  /** What the key accepts. */
  public String accepted() {
    return accepted;
  }
}
