package dev.blockcache.l1.lru;

import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CachePriority;
import dev.blockcache.buffer.HeapBlock;
import dev.blockcache.l1.ChainedBlock;
import dev.blockcache.l1.FileChains;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One cached block of an {@link LruBlockCache}: the block itself with its key's file and offset and its file-chain
 * links (a {@link ChainedBlock}, so that entry and block are one object), its priority state, its CLOCK reference bit
 * and its links in one of the cache's {@link ClockList}s.
 *
 * <h2>Life of an entry</h2>
 * <ol>
 *   <li><b>Created</b> by an insert in state {@code SINGLE} or {@code MEMORY}; its heap size is added to the cache's
 *       totals before it is published in the map.</li>
 *   <li><b>Published</b>: in the map, then linked at the tail of its priority's list and at the head of its file's
 *       chain (under the list lock, and only if it is not already removed).</li>
 *   <li><b>Hit</b>: a get sets the reference bit (if clear) and moves a {@code SINGLE} entry to {@code MULTI} with
 *       one CAS, its bytes counting as multi from then on, and offers it to the cache's {@link Promotions}; its list
 *       link follows at the next insert or eviction pass (or, if the offer was lost, when a pass meets the entry in
 *       the single list).</li>
 *   <li><b>Removed</b> once: whoever removes it from the map (evictor, {@code evictBlock}, evict-by-file, close) CASes
 *       the state to {@code REMOVED}, which is terminal, and subtracts its bytes from the totals of the priority it
 *       left. Removal is idempotent: the CAS succeeds once.</li>
 *   <li><b>Unlinked</b> from its list and its file chain under the list lock by the remover (an eviction pass that
 *       finds it removed unlinks it from the list only; the remover still unlinks it from the chain). Its bytes are
 *       reclaimed by the GC when the last reader's view is gone.</li>
 * </ol>
 *
 * <p>Thread-safety: {@code state} and {@code referenced} are accessed atomically from any thread; the list and chain
 * fields are guarded by the cache's list lock (which is also its {@link FileChains}' lock).
 */
final class LruEntry extends ChainedBlock {
  /** State value of a removed entry; the other states are {@link CachePriority#ordinal()}s. */
  static final int REMOVED = -1;
  /** {@link #listed} of an entry in no list. */
  static final byte UNLISTED = -1;

  private static final VarHandle STATE;

  static {
    try {
      STATE = MethodHandles.lookup().findVarHandle(LruEntry.class, "state", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** The key's file name and offset, kept inline so that a hit loads no key object. */
  private final String file;
  private final long offset;
  private volatile int state;
  /** The CLOCK bit: set by a hit, cleared when an eviction pass gives the entry a second chance. */
  private volatile boolean referenced;

  /** Guarded by the list lock. */
  LruEntry prev;
  /** Guarded by the list lock. */
  LruEntry next;
  /**
   * The index of the list this entry is linked in ({@link ClockList#index}), or {@link #UNLISTED}; a byte rather
   * than a reference keeps the entry at 64 bytes. Guarded by the list lock.
   */
  byte listed = UNLISTED;

  LruEntry(BlockKey key, HeapBlock block, CachePriority priority) {
    super(block);
    this.file = key.file();
    this.offset = key.offset();
    this.state = priority.ordinal();
  }

  /**
   * Whether this entry is cached under {@code key}: equal offsets and file names, the names compared by reference
   * first (a reader that reuses one name {@code String} per file never compares chars).
   */
  boolean hasKey(BlockKey key) {
    return hasKey(key.file(), key.offset());
  }

  /** {@link #hasKey(BlockKey)} of the key made of {@code otherFile} and {@code otherOffset}. */
  @SuppressWarnings("ReferenceEquality") // identity first: a file's one name String is the common case; equals decides
  boolean hasKey(String otherFile, long otherOffset) {
    return offset == otherOffset && (file == otherFile || file.equals(otherFile));
  }

  @Override
  public String file() {
    return file;
  }

  /**
   * {@inheritDoc} Built anew on each call (the entry keeps the file and offset, not the caller's key object): for
   * removals and tests, never for a hit.
   */
  @Override
  public BlockKey key() {
    return BlockKey.of(file, offset);
  }

  /** The current priority's ordinal, or {@link #REMOVED}. */
  int state() {
    return state;
  }

  boolean isRemoved() {
    return state == REMOVED;
  }

  /**
   * Records a hit: sets the reference bit and, for a single-access entry, promotes it to multi-access.
   *
   * @return true if this call promoted the entry (the caller moves its bytes from single to multi)
   */
  boolean recordHit() {
    if (!referenced) {
      referenced = true;
    }
    return state == CachePriority.SINGLE.ordinal()
        && STATE.compareAndSet(this, CachePriority.SINGLE.ordinal(), CachePriority.MULTI.ordinal());
  }

  boolean isReferenced() {
    return referenced;
  }

  void clearReferenced() {
    referenced = false;
  }

  /**
   * Moves the entry to {@link #REMOVED}.
   *
   * @return the priority ordinal it left, or {@link #REMOVED} if it was already removed
   */
  int markRemoved() {
    while (true) {
      int current = state;
      if (current == REMOVED) {
        return REMOVED;
      }
      if (STATE.compareAndSet(this, current, REMOVED)) {
        return current;
      }
    }
  }
}
