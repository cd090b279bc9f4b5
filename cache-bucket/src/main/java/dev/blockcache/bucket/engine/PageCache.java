package dev.blockcache.bucket.engine;

/** Whether a cache file's reads and writes go through the OS page cache or bypass it with O_DIRECT. */
enum PageCache {
  /** Plain positional IO through the page cache. */
  USED,
  /** O_DIRECT: aligned buffers, offsets and lengths; see {@link DirectIo}. */
  BYPASSED;

  static PageCache of(FileEngineOptions options) {
    return options.directIo() ? BYPASSED : USED;
  }
}
