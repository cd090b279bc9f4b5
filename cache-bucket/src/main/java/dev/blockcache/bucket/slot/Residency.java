package dev.blockcache.bucket.slot;

import dev.blockcache.api.BlockKey;
import dev.blockcache.bucket.BucketCache;
import java.util.Objects;

/**
 * The one {@link ResidencyListener} of a {@link BucketCache}, set at most once after the cache is built; until then
 * {@link ResidencyListener#NONE}. The write and removal paths call through this holder.
 *
 * <p>Thread-safety: the listener is published through a volatile field; a block stored before it was set is
 * announced to the listener that was current then.
 */
public final class Residency implements ResidencyListener {
  private volatile ResidencyListener listener = ResidencyListener.NONE;

  /**
   * Sets the listener; once only.
   *
   * @throws IllegalStateException if a listener was set already
   */
  public synchronized void set(ResidencyListener l) {
    Objects.requireNonNull(l, "listener");
    if (listener != ResidencyListener.NONE) {
      throw new IllegalStateException("a residency listener is set already");
    }
    listener = l;
  }

  @Override
  public void stored(BlockKey key, long entry) {
    listener.stored(key, entry);
  }

  @Override
  public void removed(long entry) {
    listener.removed(entry);
  }
}
