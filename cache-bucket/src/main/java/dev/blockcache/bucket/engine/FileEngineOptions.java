package dev.blockcache.bucket.engine;

import java.util.Objects;

/**
 * How the file engines ({@code file:}, {@code files:}, {@code mmap:}) open and access their files.
 *
 * @param pageCache {@link PageCache#BYPASSED} opens {@code file:}/{@code files:} with O_DIRECT (4096-byte aligned IO);
 *     {@code mmap:} refuses to start with it, since a mapping always goes through the page cache
 * @param io the positional reads and writes under {@code file:}/{@code files:}: {@link ChannelIo#PLAIN}, a device
 *     model or a fault injector
 *
 * <p>Thread-safety: immutable.
 */
public record FileEngineOptions(PageCache pageCache, ChannelIo io) {
  /** Buffered IO through the page cache, plain channel calls. */
  public static final FileEngineOptions DEFAULTS = new FileEngineOptions(PageCache.USED, ChannelIo.PLAIN);

  public FileEngineOptions {
    Objects.requireNonNull(pageCache, "pageCache");
    Objects.requireNonNull(io, "io");
  }

  /** Whether the files are opened with O_DIRECT. */
  public boolean directIo() {
    return pageCache == PageCache.BYPASSED;
  }

  public FileEngineOptions withPageCache(PageCache value) {
    return new FileEngineOptions(value, io);
  }

  public FileEngineOptions withIo(ChannelIo value) {
    return new FileEngineOptions(pageCache, value);
  }
}
