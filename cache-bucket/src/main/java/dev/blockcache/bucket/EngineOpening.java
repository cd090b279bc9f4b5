package dev.blockcache.bucket;

import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.bucket.config.BucketCacheKeys;
import dev.blockcache.bucket.config.EngineGeometry;
import dev.blockcache.bucket.engine.IoEngine;
import dev.blockcache.bucket.engine.IoEngineRegistry;
import dev.blockcache.config.ConfigException;
import java.io.IOException;

/**
 * Makes a {@link BucketCache}'s engine from its config, refusing a config the cache would refuse before any file is
 * made for it, and quoting the capacity as the user wrote it when the engine refuses it.
 *
 * <p>Thread-safety: stateless.
 */
final class EngineOpening {
  private EngineOpening() {}

  /**
   * A new engine for {@code config.ioEngine()} from {@code registry}, sized by the config's geometry. A cache file
   * whose header was damaged is started cold over when the cache's own checkpoint proves it ours
   * ({@link DamagedCacheFiles}); a foreign one stays refused by the engine.
   */
  static IoEngine open(BucketCacheConfig config, IoEngineRegistry registry) throws IOException {
    if (config.writerInline() && !registry.makesMemoryEngine(config.ioEngine())) {
      throw inlineNeedsMemory(config);
    }
    DamagedCacheFiles.startColdIfProvenOurs(config);
    try {
      return registry.create(config.ioEngine(), EngineGeometry.capacity(config), EngineGeometry.segmentSize(config));
    } catch (ConfigException e) {
      throw quotedAsWritten(e, config);
    }
  }

  /** The refusal of inline writes on an engine that is not memory. */
  static ConfigException inlineNeedsMemory(BucketCacheConfig config) {
    return new ConfigException(BucketCacheKeys.WRITER_INLINE, true, "true only with a memory engine such as heap or"
        + " offheap (" + config.ioEngine() + " is not one): other engines write on writer threads");
  }

  /**
   * {@code e} quoting the capacity as the user wrote it when it is about {@value BucketCacheKeys#SIZE}: an engine
   * sees only the bytes the geometry rounded the capacity to.
   */
  private static ConfigException quotedAsWritten(ConfigException e, BucketCacheConfig config) {
    if (!e.key().equals(BucketCacheKeys.SIZE)) {
      return e;
    }
    ConfigException quoted = new ConfigException(e.key(), config.sizeAsWritten(), e.accepted());
    quoted.initCause(e);
    return quoted;
  }
}
