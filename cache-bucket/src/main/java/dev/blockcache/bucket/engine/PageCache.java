package dev.blockcache.bucket.engine;

/** Whether a cache file's reads and writes go through the OS page cache or bypass it with O_DIRECT. */
public enum PageCache {
  /** Plain positional IO through the page cache. */
  USED,
  /** O_DIRECT: aligned buffers, offsets and lengths; see {@link DirectIo}. */
  BYPASSED;

  /** {@link #BYPASSED} when {@code directIo} (a config's {@code hbase.bucketcache.file.directio}), else {@link #USED}. */
  public static PageCache directIo(boolean directIo) {
    return directIo ? BYPASSED : USED;
  }
}
