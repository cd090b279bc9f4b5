package dev.blockcache.sim.trace;

import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;

/**
 * How a trace file encodes its keys. Text formats are read line by line (surrounding white space and blank lines are
 * ignored); binary formats are fixed-width big-endian records. Every format yields one 64-bit key per access.
 *
 * <p>Thread-safety: stateless.
 */
public enum TraceFormat {
  /** The common format: one key per line, a decimal number or any other text (hashed to 64 bits). */
  TEXT(new LineFormat(TextLines::keyOrHash)),
  /** LIRS traces: one decimal block number per line; lines of {@code *} separate phases and are skipped. */
  LIRS(new LineFormat(TextLines::lirsBlock)),
  /** UCSD address traces: {@code <op> 0x<hex address> <size>} per line; the key is the address. */
  ADDRESS(new LineFormat(TextLines::address)),
  /** Gradle build-cache traces: one 128-bit key in 32 hex digits per line, folded to 64 bits. */
  GRADLE(new LineFormat(TextLines::hex128)),
  /** cache2k traces: one big-endian int32 key per access. */
  CACHE2K(new BinaryFormat(Integer.BYTES)),
  /** Corda traces: one big-endian int64 key per access. */
  CORDA(new BinaryFormat(Long.BYTES)),
  /** Scarab traces: one big-endian int64 key per access. */
  SCARAB(new BinaryFormat(Long.BYTES));

  @SuppressWarnings("ImmutableEnumChecker") // every decoder is stateless: a method reference or a key width
  private final KeyDecoder decoder;

  TraceFormat(KeyDecoder decoder) {
    this.decoder = decoder;
  }

  /** The format's name in lower case, as written on the command line and as the traces' directory name. */
  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The format named {@code id} (case-insensitive); the error lists the accepted names. */
  public static TraceFormat of(String id) {
    for (TraceFormat format : values()) {
      if (format.id().equalsIgnoreCase(id)) {
        return format;
      }
    }
    throw new IllegalArgumentException("trace format '" + id + "' is unknown; accepted: " + ids());
  }

  /** The accepted format names, comma-separated. */
  public static String ids() {
    StringBuilder text = new StringBuilder();
    for (TraceFormat format : values()) {
      text.append(text.length() == 0 ? "" : ", ").append(format.id());
    }
    return text.toString();
  }

  /**
   * Appends the keys of {@code in} to {@code keys} until the input ends or {@code keys} holds {@code maxEvents};
   * does not close {@code in}.
   */
  void decode(InputStream in, LongList keys, int maxEvents) throws IOException {
    decoder.decode(in, keys, maxEvents);
  }

  /** Decodes a stream of one format. */
  interface KeyDecoder {
    void decode(InputStream in, LongList keys, int maxEvents) throws IOException;
  }
}
