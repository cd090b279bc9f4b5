package dev.blockcache.jmh.file;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The baseline: one {@link FileChannel#read(ByteBuffer, long)} of {@code readLength} bytes at {@code block ×
 * stride} into a per-thread direct buffer (4096-aligned, so the same code runs with O_DIRECT). No allocation, no
 * checks: the floor any file cache pays. {@link #aligned} reads exactly the block at block-size strides (the raw
 * read); {@link #slotShaped} reads what our get reads: header + block at the stride of the bucket item holding it.
 *
 * <p>Thread-safety: positional reads are safe concurrently; each thread reads into its own buffer.
 */
final class RawFileReader implements FileReader {
  /** Buffer alignment: O_DIRECT's here. */
  private static final int PAGE = 4096;

  private final FileChannel channel;
  private final int stride;
  private final ThreadLocal<ByteBuffer> buffers;

  /** Reads of exactly {@code blockSize} bytes at multiples of {@code blockSize}. */
  static RawFileReader aligned(Path file, int blocks, int blockSize, boolean directIo) throws IOException {
    return new RawFileReader(file, blocks, blockSize, blockSize, directIo);
  }

  /**
   * Reads of {@code headerLength + blockSize} bytes at multiples of {@code itemSize}: the shape of our file get
   * (a slot is header + block, at the start of an item of its bucket size class).
   */
  static RawFileReader slotShaped(Path file, int blocks, int blockSize, int headerLength, int itemSize)
      throws IOException {
    if (headerLength + blockSize > itemSize) {
      throw new IllegalArgumentException("header " + headerLength + " + block " + blockSize + " > item " + itemSize);
    }
    return new RawFileReader(file, blocks, headerLength + blockSize, itemSize, false);
  }

  private RawFileReader(Path file, int blocks, int readLength, int stride, boolean directIo) throws IOException {
    this.stride = stride;
    // alignedSlice rounds the capacity down to whole pages: room for the read rounded up, plus one page to align.
    int pages = (readLength + PAGE - 1) / PAGE;
    this.buffers = ThreadLocal.withInitial(
        () -> ByteBuffer.allocateDirect((pages + 1) * PAGE).alignedSlice(PAGE).limit(readLength).slice());
    try (FileChannel writer = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
      ByteBuffer block = ByteBuffer.allocate(stride);
      for (int i = 0; i < blocks; i++) {
        block.clear();
        block.put(0, (byte) i);
        while (block.hasRemaining()) {
          writer.write(block, (long) i * stride + block.position());
        }
      }
      writer.force(true);
    }
    Set<OpenOption> options = new HashSet<>(List.of(StandardOpenOption.READ));
    if (directIo) {
      options.add(com.sun.nio.file.ExtendedOpenOption.DIRECT);
    }
    channel = FileChannel.open(file, options);
  }

  @Override
  public int read(int block) {
    ByteBuffer buffer = buffers.get();
    buffer.clear();
    try {
      long position = (long) block * stride;
      while (buffer.hasRemaining()) {
        if (channel.read(buffer, position + buffer.position()) < 0) {
          throw new IllegalStateException("end of file in block " + block);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return buffer.position();
  }

  @Override
  public void close() {
    try {
      channel.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
