package dev.blockcache.jmh.l1;

import dev.blockcache.api.BlockFile;
import dev.blockcache.api.BlockKey;
import dev.blockcache.jmh.workload.KeySource;

/**
 * Our {@link BlockKey} for key {@code i} of a {@link Keys} set, come by as a {@link KeySource} says: built per lookup
 * from the file's name, built per lookup from the file's handle, or taken from an array built in advance.
 *
 * <p>Thread-safety: immutable after construction; {@link #key} is called by every benchmark thread.
 */
final class OurKeys {
  private final Keys names;
  private final KeySource source;
  private final BlockFile[] files = new BlockFile[Keys.FILES];
  private final BlockKey[] prebuilt;

  OurKeys(Keys names, int count, KeySource source) {
    this.names = names;
    this.source = source;
    for (int f = 0; f < Keys.FILES; f++) {
      files[f] = BlockKey.file(names.file(f));
    }
    this.prebuilt = new BlockKey[count];
    for (int i = 0; i < count; i++) {
      prebuilt[i] = BlockKey.of(names.file(i), names.offset(i));
    }
  }

  /** Key {@code i}; a new object unless the source is {@link KeySource#PREBUILT}. */
  BlockKey key(int i) {
    if (source == KeySource.PER_LOOKUP) {
      return BlockKey.of(names.file(i), names.offset(i));
    }
    if (source == KeySource.FILE_HANDLE) {
      return files[i % Keys.FILES].block(names.offset(i));
    }
    return prebuilt[i];
  }
}
