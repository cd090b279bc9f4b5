package dev.blockcache.sim.policy;

/**
 * A cache under simulation, replayed one access at a time, read-through: a miss inserts the key.
 *
 * <p>Thread-safety: none; one simulation thread drives a policy.
 */
public interface Policy extends AutoCloseable {

  /**
   * Looks {@code key} up; on a miss, inserts it (the cache may then evict, or, for a cache with admission, decline).
   *
   * @return whether the lookup hit
   */
  boolean access(long key);

  /** Blocks written so far (an L2's slot writes), or -1 for a policy that does not count them. */
  long writes();

  /** Frees what the policy holds (a real cache's memory and threads). Idempotent. */
  @Override
  void close();
}
