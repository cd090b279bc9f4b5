package dev.blockcache.buffer;

/**
 * Told when a {@link BlockBuf} it handed out is released for the last time, so that it can return the memory the
 * view pinned (an L2 slot, say). The token is the one the owner gave the view; it lets one owner object serve every
 * view without a capturing lambda per view.
 *
 * <p>Implementations must be thread-safe: a view may be released on any thread.
 */
@FunctionalInterface
public interface ViewOwner {
  /** Called exactly once per view, on the thread that released its last reference. Must not throw. */
  void viewReleased(long token);
}
