package dev.blockcache.bucket.engine;

import java.util.Objects;

/**
 * How the file engines ({@code file:}, {@code files:}, {@code mmap:}) open and access their files.
 *
 * @param directIo open {@code file:}/{@code files:} with O_DIRECT (4096-byte aligned IO); {@code mmap:} ignores it
 *     and refuses to start if it is set, since a mapping always goes through the page cache
 * @param io the positional reads and writes under {@code file:}/{@code files:}: {@link ChannelIo#PLAIN}, a device
 *     model or a fault injector
 *
 * <p>Thread-safety: immutable.
 */
public record FileEngineOptions(boolean directIo, ChannelIo io) {
  /** Buffered IO through the page cache, plain channel calls. */
  public static final FileEngineOptions DEFAULTS = new FileEngineOptions(false, ChannelIo.PLAIN);

  public FileEngineOptions {
    Objects.requireNonNull(io, "io");
  }

  public FileEngineOptions withDirectIo(boolean value) {
    return new FileEngineOptions(value, io);
  }

  public FileEngineOptions withIo(ChannelIo value) {
    return new FileEngineOptions(directIo, value);
  }
}
