package dev.blockcache.minidb;

import java.io.IOException;

/**
 * A data block read from the file failed checksum verification; its bytes were not used.
 *
 * <p>Thread-safety: immutable.
 */
public final class CorruptBlockException extends IOException {
  private static final long serialVersionUID = 1L;

  CorruptBlockException(String file, long blockOffset, int chunk, int expected, int actual) {
    super("corrupt block in " + file + " at offset " + blockOffset + ": chunk " + chunk + " has CRC32C "
        + Integer.toHexString(actual) + ", stored " + Integer.toHexString(expected));
  }
}
