package dev.blockcache.jmh.l1;

import dev.blockcache.api.BlockReader;
import io.netty.buffer.ByteBuf;
import org.apache.hadoop.hbase.nio.ByteBuff;

/**
 * What every L1 and L2 get benchmark does with a hit: read the block's first, middle and last byte (so that the block's
 * bytes are touched, not just its header object) and sum them. Also a reusable {@link BlockReader} for scoped reads:
 * one per benchmark thread ({@link L1GetBenchmark.ThreadReader}), the sum of the last block read left in
 * {@link #last}. Not a JMH state itself: JMH would hand the benchmark a generated subclass, a second receiver class
 * beside the plain one the setup reads with, and the scoped read's call of {@link #read} would be compiled for both.
 *
 * <p>Thread-safety: an instance is used by one thread only; the static methods are stateless.
 */
public final class ThreeBytes implements BlockReader {
  /** The three-byte sum of the last block this reader read. */
  int last;

  @Override
  public void read(ByteBuf block) {
    last = of(block);
  }

  /** The sum of {@code block}'s first, middle and last readable byte. */
  public static int of(ByteBuf block) {
    return of(block, block.readerIndex(), block.readableBytes());
  }

  /** The same over {@code length} bytes of {@code buffer} from index {@code from}. */
  public static int of(ByteBuf buffer, int from, int length) {
    return buffer.getByte(from) + buffer.getByte(from + (length >>> 1)) + buffer.getByte(from + length - 1);
  }

  /** The same over an HBase buffer's position..limit. */
  public static int of(ByteBuff block) {
    int from = block.position();
    int length = block.limit() - from;
    return block.get(from) + block.get(from + (length >>> 1)) + block.get(from + length - 1);
  }

  /** The same over an array. */
  public static int of(byte[] block) {
    return block[0] + block[block.length >>> 1] + block[block.length - 1];
  }
}
