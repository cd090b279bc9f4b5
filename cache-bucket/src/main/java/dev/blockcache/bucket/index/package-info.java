/**
 * The L2's compact index, {@link dev.blockcache.bucket.index.BlockIndex}: which device slot holds which block, in a
 * few tens of bytes of heap per block and no object per block.
 *
 * <p><b>What is stored.</b> Not the key: a 64-bit fingerprint of it ({@link Fingerprint}: its layout, how a key
 * picks its segment, and what a collision does), plus the packed {@link IndexEntry}.
 *
 * <p><b>Memory layout</b> ({@link IndexHeap}). {@link BlockIndex#segmentCount()} = fileGroups * 2^SUB_BITS segments,
 * fileGroups = expectedEntries / {@value IndexHeap#ENTRIES_PER_FILE_GROUP} rounded to a power of two in
 * [{@value IndexHeap#MIN_FILE_GROUPS}, {@value IndexHeap#MAX_FILE_GROUPS}] (1,024 groups, 8,192 segments at 1M
 * entries). Each {@link Segment} is an open-addressing table over one {@code long[]} of 16-byte slots (fingerprint,
 * entry word), linear probing, backward-shift delete, grown by 5/4 at load 4/5, so its load stays in [0.64, 0.8]:
 * 20-25 B per entry, plus ~{@value IndexHeap#SEGMENT_OVERHEAD_BYTES} B per segment (~1 B per entry at 1M). The CLOCK
 * reference bit is bit 63 of the entry word (free in every {@link IndexEntry}). An index with a sketch (tinylfu)
 * also keeps, per segment, a {@code byte[]} parallel to the slots: each entry's recency stamp (1.25-1.56 B per
 * entry); without a sketch there is no side array. Segments start at 8
 * slots and grow on demand: {@code expectedEntries} only sets how many there are, so one big file does not leave the others
 * pre-allocated and empty.
 *
 * <p><b>Per-file removal.</b> All blocks of a file fall in the {@value BlockIndex#SUB_BITS_POW} segments of its file group;
 * {@link BlockIndex#removeFile} scans those and removes entries whose tag matches. Cost: the slots of one file group, i.e.
 * the file's own blocks plus those of the files sharing its group: about size() / fileGroups (~1,000 entries at
 * 1M), not a scan of the index. Two files that agree on their tag and group bits (24 + G bits; ~F^2 / 2^(25+G)
 * pairs among F files, e.g. 0.003 for 10,000 files at 1M entries) cannot be told apart: removing one also removes
 * the other's blocks, which costs misses, never wrong data.
 *
 * <p><b>One big file.</b> Its blocks spread over the {@value BlockIndex#SUB_BITS_POW} stripes of its group, so it serialises
 * on 8 locks, not 1; each stripe holds 1/8 of the file and resizes (a copy under that stripe's write lock, costing
 * time proportional to the stripe) on its own. Concurrency on such a file is limited to 8 writers; readers are not blocked except
 * during a resize or delete in the same stripe. Its heap grows too: a stripe of hundreds of thousands of entries is a table of
 * megabytes, which G1 allocates as a humongous object rounded up to whole heap regions (up to a region of slack per
 * stripe), and a restore into a few large tables misses the CPU cache on nearly every insert. Store files of a few GiB,
 * as RegionServers keep them, stay far below that.
 *
 * <p><b>Concurrency model.</b> Each segment has a {@link java.util.concurrent.locks.StampedLock}. Writers
 * ({@link BlockIndex#putIfAbsent}, {@link BlockIndex#remove}, promotion, eviction, {@link BlockIndex#removeFile}, {@link BlockIndex#clear}, resize) take
 * the write lock of one segment at a time: no operation holds two segment locks, so there is no lock order to keep.
 * Lookups ({@link BlockIndex#get}, {@link BlockIndex#peek}) read optimistically (no write to shared memory) and retry under the read
 * lock if a writer intervened. {@link BlockIndex#get} then sets the reference bit with a CAS that only succeeds if the word
 * is still exactly what it read; losing that race loses a reference bit, never an entry. Writers store plain under
 * the write lock while such a CAS may run (moves of a backward shift, promotion, the CLOCK clearing a bit, a resize
 * copying the table); a CAS never overwrites a word it did not read, so the worst outcome is a lost bit or a bit
 * set on a dead or moved word, never a changed entry. {@code SegmentReferenceBitLincheckTest} model-checks this.
 * The first repeat access
 * of a SINGLE entry takes the write lock once to promote it to MULTI and move its bytes between the per-priority
 * totals. Totals ({@link BlockIndex#size}, {@link BlockIndex#bytes}) are {@link java.util.concurrent.atomic.LongAdder}s updated under the segment lock; a read
 * concurrent with writers sees a recent, not an atomic, snapshot. {@link BlockIndex#evict} calls for one priority serialise
 * on that priority's hand; evictions of different priorities run concurrently.
 *
 * <p><b>Sinks run after the segment lock is released</b> (each segment operation collects what it removed and hands
 * it over once unlocked), so freeing a slot never nests the allocator's or the pin table's lock inside a segment
 * lock; an eviction still holds its priority's hand. <b>Visitors run under the read lock</b> of their segment: they
 * must be short, non-blocking, and must not call back into this index. The whole lock order of the L2 is in
 * {@code dev.blockcache.bucket}'s package notes.
 *
 * <p><b>CLOCK.</b> One persistent {@link ClockHand} per priority walks segments in order and slots within each; a
 * referenced entry loses its bit, an unreferenced one is removed (the stop rule is the hand's). SINGLE entries are
 * never referenced (a hit promotes them), so they go in slot order, not insertion order: a fingerprint table keeps
 * no insertion order. That is {@link BlockIndex#evict}, the hbase policy's sweep.
 *
 * <p><b>Frequency (tinylfu policy).</b> An index built with a {@link FrequencySketch} counts every {@link BlockIndex#get} in it
 * (keyed by the fingerprint, so the sketch needs nothing else per entry) and {@link BlockIndex#chooseVictim} orders eviction
 * within a priority by recency, then frequency: the hand still passes over referenced entries (clearing their bit),
 * and of the next few unreferenced ones the least recently read is chosen (a sampled LRU), the least frequent among
 * equally old ones, so hash order only breaks the remaining ties.
 *
 * <p><b>Recency stamps (tinylfu policy).</b> Each entry also carries a one-byte stamp of the epoch of its last read
 * or insert, which ranks a victim sample by age ({@link RecencyClock}).
 *
 * <p><b>Admission window (tinylfu policy).</b> The window is a bit of each entry ({@link IndexEntry#inWindow}), not a
 * structure of its own: an entry is put in with the bit set, a fourth CLOCK hand walks the entries that have it
 * ({@link BlockIndex#chooseWindowLeaver}), and {@link BlockIndex#leaveWindow} clears it. A window entry is inserted referenced, so a new
 * block stays about one revolution of that hand whatever its slot. The segments count the entries that have it
 * under their locks, so {@link BlockIndex#windowSize} stays exact whatever removes an entry (eviction, a file's removal, the
 * allocation fallback). Victim filters decide whether eviction may take window entries.
 */
package dev.blockcache.bucket.index;
