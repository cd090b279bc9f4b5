/**
 * The L2 {@link dev.blockcache.bucket.BucketCache} and the parts it is made of, one package per job; a package
 * imports only packages listed after it here (a build test fails on any package cycle):
 * <ul>
 *   <li>this package: the cache itself, its warm restart ({@code BucketPersistence}) and its start over damaged files;
 *   <li>{@code read}: the get path (lookup in pending writes and the index, slot reads, checksum policy, read buffers);
 *   <li>{@code write}: the insert path (admit then copy or hand over, inline writers, the writer pipeline, the blocks
 *       waiting for a writer);
 *   <li>{@code policy}: admission and eviction (frequency admission, the climbing window, priority shares, the
 *       reclaimer that frees space, the write budget);
 *   <li>{@code slot}: a slot's lifetime (pins, release, residency listeners, what an entry reports);
 *   <li>{@code stats}: counters, metrics and fault accounting;
 *   <li>{@code persist}, {@code index}, {@code engine}: the checkpoint, the index, the IO engines;
 *   <li>{@code config}: key names, the validated configuration and its checks;
 *   <li>{@code alloc}, {@code format}: the bucket allocator and the slot header.
 * </ul>
 * Classes below this package are public so the packages can see each other; only this package, {@code config},
 * {@code engine} and {@code slot.ResidencyListener} are API for embedders.
 *
 * <h2>Life of an entry</h2>
 * <ol>
 *   <li><b>Waiting.</b> {@code cacheBlock} copies the block to the heap ({@code handOver} keeps the caller's buffer
 *       instead), puts it in the RAM cache (where gets find it) and queues it for its writer; a full queue fails the
 *       call with {@code QUEUE_FULL}. On a memory engine {@code cacheBlock} and {@code handOver} skip
 *       this step and the next while a slot is free without evicting: the caller's thread copies the block into that
 *       slot ({@code write.CopyPath}; {@code handOver} then releases the caller's buffer).</li>
 *   <li><b>Written.</b> A writer allocates a slot (evicting if needed, see {@code policy.SpaceReclaimer}), writes header and
 *       block, maps the key to the slot in the index, then takes the block out of the RAM cache and drops its hold
 *       on the bytes (see {@code WaitingBlock}: a handed-over buffer is released once no get reads it).</li>
 *   <li><b>Read.</b> A get pins the slot and hands out a view; see {@code read.SlotReader}.</li>
 *   <li><b>Removed.</b> Eviction, {@code evictBlock}, {@code evictBlocksByFile} or {@code close} take the entry out of
 *       the index (exactly once: the index removes an entry once) and ask the pin table to free the slot.</li>
 *   <li><b>Freed.</b> The slot returns to the allocator when the last reader that pinned it releases its view.</li>
 * </ol>
 *
 * <h2>Parts</h2>
 * Each part gets what it needs and nothing else: the {@code SlotGuard} (pins, close, engine release), the
 * {@code BlockIndex}, the {@code RamCache}, the {@code SpaceReclaimer}, a
 * {@code SlotReader}, a {@code SlotWriter} behind the {@code WriterPipeline} (or an {@code InlineWriter}), the
 * {@code SlotRelease} sinks, the {@code SlotFaults} report, the {@code BlockInserter} (the insert path), and
 * {@code BucketPersistence}. {@code BucketCache} wires them.
 *
 * <h2>Lock order</h2>
 * Every lock of the L2, in the only order in which a thread may hold two of them: a thread holding a lock of level
 * {@code n} takes only locks of a higher level. The locks marked <i>leaf</i> call nothing that takes another lock.
 * <ol>
 *   <li><b>{@code WriterLane} batch lock</b> of one writer queue — held while one batch is taken and written (by the
 *       lane's writer thread, or by a thread in {@code awaitWritten} or {@code close} that writes for it); never two
 *       lanes at once.</li>
 *   <li><b>{@code SpaceReclaimer} monitor</b> — one eviction pass at a time (writer threads, inline writers).</li>
 *   <li><b>{@code ClockHand} monitor</b> of one priority — a CLOCK sweep ({@code BlockIndex#evict}).</li>
 *   <li><b>{@code PendingWrite} monitor</b> — publishing or withdrawing one waiting block.</li>
 *   <li><b>One {@code Segment} lock</b> of the index (a {@code StampedLock}) — never two at once. Nothing below is
 *       taken under it: an operation that removes entries hands them to its {@code EntrySink} only after releasing
 *       the segment lock.</li>
 *   <li><b>{@code SlotPins} stripe lock</b> — <i>leaf</i>: the free a last unpin performs runs after the stripe
 *       is released.</li>
 *   <li><b>{@code BucketAllocator} lock</b> — <i>leaf</i>.</li>
 * </ol>
 * So an eviction nests at most reclaimer → hand, then frees (pin stripe, then allocator, one after the other, never
 * nested) with only those two held; a get takes a pin stripe and a segment lock one after the other, never nested.
 * Locks outside this chain are leaves or taken alone: the writer queues and {@code WriterPipeline}'s progress lock
 * (signalled after a batch, with the batch lock released by the thread in {@code awaitWritten});
 * {@code IoErrorTolerance}'s monitor; {@code WriteBudget}'s monitor (taken alone, never while the reclaimer's is
 * held); the {@code FileIoEngine} page-lock stripes (taken in ascending stripe order, around IO only);
 * {@code IndexPersister}'s checkpoint lock, under which a checkpoint takes one segment's read lock at a time and syncs
 * the engine; the cache's own monitor (its closed flag only).
 *
 * <p>Every field these locks guard carries {@code @GuardedBy}, and every helper that must run under one is named
 * {@code ...Locked} and carries it too; Error Prone checks both at compile time. The segment lock is a
 * {@code StampedLock} that is also a {@code Lock} for its write lock ({@code SegmentLock}), so that the checker follows
 * it; only a segment's optimistic and stamped reads are exempt, each marked where it is.
 *
 * <p>Why this order: the allocator and the pin table are the hottest shared locks after the segments, and a segment
 * write lock blocks every get of its stripe; freeing slots after the segment lock is released keeps gets from waiting
 * behind the allocator, and keeps every lock that frees memory a leaf, so no future call from the allocator or the
 * pin table can close a cycle.
 */
package dev.blockcache.bucket;
