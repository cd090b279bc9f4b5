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
 * The baseline: one {@link FileChannel#read(ByteBuffer, long)} of {@code blockSize} bytes at {@code block ×
 * blockSize} into a per-thread direct buffer (4096-aligned, so the same code runs with O_DIRECT). No allocation, no
 * checks: the floor any file cache pays.
 *
 * <p>Thread-safety: positional reads are safe concurrently; each thread reads into its own buffer.
 */
final class RawFileReader implements FileReader {
  private final FileChannel channel;
  private final int blockSize;
  private final ThreadLocal<ByteBuffer> buffers;

  RawFileReader(Path file, int blocks, int blockSize, boolean directIo) throws IOException {
    this.blockSize = blockSize;
    this.buffers = ThreadLocal.withInitial(
        () -> ByteBuffer.allocateDirect(blockSize + 4096).alignedSlice(4096).limit(blockSize).slice());
    try (FileChannel writer = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
      ByteBuffer block = ByteBuffer.allocate(blockSize);
      for (int i = 0; i < blocks; i++) {
        block.clear();
        block.put(0, (byte) i);
        while (block.hasRemaining()) {
          writer.write(block, (long) i * blockSize + block.position());
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
      long position = (long) block * blockSize;
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
