package dev.blockcache.jmh.l1;

import dev.blockcache.api.BlockFile;
import dev.blockcache.api.BlockKey;
import dev.blockcache.jmh.workload.KeySource;

/**
 * Our {@link BlockKey} for key {@code i} of a {@link Keys} set, come by as a {@link KeySource} says: built per lookup
 * from the file's name, built per lookup from the file's handle, or taken from an array built in advance (only then
 * does it hold key objects, so a heap measurement of a cache counts none of its own). With the handle, a scoped read
 * can take the handle and offset instead of a key ({@link #file}, {@link #offset}).
 *
 * <p>Thread-safety: immutable after construction; {@link #key} is called by every benchmark thread.
 */
public final class OurKeys {
  private final Keys names;
  private final KeySource source;
  private final BlockFile[] files = new BlockFile[Keys.FILES];
  private final BlockKey[] prebuilt;

  /** Keys {@code 0 .. count - 1} of {@code names}, come by as {@code source} says. */
  public OurKeys(Keys names, int count, KeySource source) {
    this.names = names;
    this.source = source;
    for (int f = 0; f < Keys.FILES; f++) {
      files[f] = BlockKey.file(names.file(f));
    }
    this.prebuilt = source == KeySource.PREBUILT ? new BlockKey[count] : null;
    for (int i = 0; prebuilt != null && i < count; i++) {
      prebuilt[i] = BlockKey.of(names.file(i), names.offset(i));
    }
  }

  /** Whether gets come by the file's handle ({@link KeySource#FILE_HANDLE}): they then build no key. */
  public boolean byHandle() {
    return source == KeySource.FILE_HANDLE;
  }

  /** The handle of key {@code i}'s file. */
  public BlockFile file(int i) {
    return files[i % Keys.FILES];
  }

  /** Key {@code i}'s offset in its file. */
  public long offset(int i) {
    return names.offset(i);
  }

  /** Key {@code i}; a new object unless the source is {@link KeySource#PREBUILT}. */
  public BlockKey key(int i) {
    if (source == KeySource.PER_LOOKUP) {
      return BlockKey.of(names.file(i), names.offset(i));
    }
    if (source == KeySource.FILE_HANDLE) {
      return file(i).block(offset(i));
    }
    return prebuilt[i];
  }
}
