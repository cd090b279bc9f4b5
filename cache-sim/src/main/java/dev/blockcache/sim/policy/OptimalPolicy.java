package dev.blockcache.sim.policy;

import dev.blockcache.sim.trace.Trace;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Belady's OPT, computed exactly: on a miss with the cache full, evict the key whose next use lies farthest in the
 * future (or never comes), the missed key included. A missed key that is itself the farthest is inserted and evicted
 * at once (it passes through, as a block an admission policy such as TinyLFU declines); so this is the highest hit
 * ratio any cache of {@code capacity} keys can reach on the trace, with or without admission.
 *
 * <h2>Design notes</h2>
 * The next use of every access is precomputed with one backward pass: {@code next[i]} is the position of the next
 * access to {@code key(i)}, or {@code length + i} when there is none (distinct, and beyond every real position).
 * A resident key is represented by the position of its next use, which is unique among residents, so:
 * <ul>
 *   <li>access {@code i} hits exactly when position {@code i} is resident (the key was cached and its next use
 *       is now);</li>
 *   <li>the victim is the largest resident position: a max-heap of positions, with lazy deletion (a hit clears
 *       {@code resident[i]}; the stale heap element is skipped when it reaches the top).</li>
 * </ul>
 * Each access costs O(log n) on the trace length n, and the heap holds at most one element per access.
 *
 * <p>Thread-safety: not thread-safe (see {@link Policy}). The policy replays its own trace: {@link #access} must be
 * called with the trace's keys in order, and fails on any other key.
 */
public final class OptimalPolicy implements Policy {
  private final Trace trace;
  private final int capacity;
  private final int[] next;
  /** Indexed by next-use position ({@code 0 .. 2 × length}): whether a resident key's next use is there. */
  private final boolean[] resident;
  /** Max-heap of next-use positions; an element whose {@code resident} flag is clear is stale. */
  private int[] heap = new int[1024];
  private int heapSize;
  private int residents;
  private int cursor;

  /** An empty cache of {@code capacity} keys ({@code capacity >= 1}) that will replay {@code trace}. */
  public OptimalPolicy(Trace trace, int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity " + capacity + ": expected at least 1 key");
    }
    if (trace.length() > Integer.MAX_VALUE / 2) {
      throw new IllegalArgumentException("trace of " + trace.length() + " accesses: at most "
          + Integer.MAX_VALUE / 2 + " are supported");
    }
    this.trace = trace;
    this.capacity = capacity;
    this.next = nextUses(trace);
    this.resident = new boolean[2 * trace.length()];
  }

  /** {@code next[i]}: the position of the next access to {@code trace.key(i)}, or {@code length + i}. */
  static int[] nextUses(Trace trace) {
    int n = trace.length();
    int[] next = new int[n];
    Map<Long, Integer> later = new HashMap<>();
    for (int i = n - 1; i >= 0; i--) {
      Integer position = later.put(trace.key(i), i);
      next[i] = position == null ? n + i : position;
    }
    return next;
  }

  /** Not counted: a reference policy has no device to write. */
  @Override
  public long writes() {
    return -1;
  }

  @Override
  public boolean access(long key) {
    int i = cursor;
    if (i >= trace.length() || trace.key(i) != key) {
      throw new IllegalStateException("OPT replays its own trace: access " + i + " is not key " + key);
    }
    cursor++;
    boolean hit = resident[i];
    if (hit) {
      resident[i] = false; // its heap element goes stale; the key is re-added below with its next use
    } else if (residents == capacity) {
      if (farthestResident() < next[i]) {
        return false; // the missed key is the farthest: it passes through
      }
      resident[pop()] = false;
    } else {
      residents++;
    }
    resident[next[i]] = true;
    push(next[i]);
    return hit;
  }

  /** The farthest resident next use (the cache is not empty); drops stale heap elements above it. */
  private int farthestResident() {
    while (!resident[heap[0]]) {
      pop();
    }
    return heap[0];
  }

  private void push(int position) {
    if (heapSize == heap.length) {
      heap = Arrays.copyOf(heap, heap.length * 2);
    }
    int child = heapSize++;
    while (child > 0) {
      int parent = (child - 1) >>> 1;
      if (heap[parent] >= position) {
        break;
      }
      heap[child] = heap[parent];
      child = parent;
    }
    heap[child] = position;
  }

  private int pop() {
    int top = heap[0];
    int last = heap[--heapSize];
    int parent = 0;
    while (true) {
      int child = 2 * parent + 1;
      if (child >= heapSize) {
        break;
      }
      if (child + 1 < heapSize && heap[child + 1] > heap[child]) {
        child++;
      }
      if (heap[child] <= last) {
        break;
      }
      heap[parent] = heap[child];
      parent = child;
    }
    heap[parent] = last;
    return top;
  }

  @Override
  public void close() {
    heapSize = 0;
    residents = 0;
  }
}
