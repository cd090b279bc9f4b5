package dev.blockcache.l1;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.buffer.HeapBlock;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which blocks {@link FileChains} holds for evict-by-file, as blocks are linked, dropped and taken. */
class FileChainsTest {
  private final FileChains chains = new FileChains();

  /** A block of {@code file}; the copy is the block's own, the source is released here. */
  private static ChainedBlock block(String file, long offset) {
    ByteBuf source = Unpooled.wrappedBuffer(new byte[16]);
    HeapBlock bytes;
    try {
      bytes = HeapBlock.copyOf(source, BlockCategory.DATA);
    } finally {
      source.release();
    }
    return new ChainedBlock(bytes) {
      @Override
      public String file() {
        return file;
      }

      @Override
      public BlockKey key() {
        return BlockKey.of(file, offset);
      }
    };
  }

  @Test
  void aFileChainsItsBlocksNewestFirstAndLinkingTwiceChangesNothing() {
    ChainedBlock a = block("f", 0);
    ChainedBlock b = block("f", 1);
    chains.linkLocked(a);
    chains.linkLocked(b);
    chains.linkLocked(a);
    assertEquals(1, chains.fileCountLocked());
    assertEquals(List.of(b, a), chains.takeLocked("f"));
    assertEquals(0, chains.fileCountLocked());
  }

  @Test
  void aBlockDroppedBeforeItWasLinkedStaysOutOfItsChain() {
    ChainedBlock early = block("f", 0);
    chains.dropLocked(early); // its eviction ran between its publication and its linking
    chains.linkLocked(early);
    assertEquals(0, chains.fileCountLocked());
    assertEquals(List.of(), chains.takeLocked("f"));
  }

  @Test
  void droppingAnyBlockKeepsTheRestOfItsChainAndOtherFiles() {
    ChainedBlock a = block("f", 0);
    ChainedBlock b = block("f", 1);
    ChainedBlock c = block("f", 2);
    ChainedBlock other = block("g", 0);
    for (ChainedBlock x : List.of(a, b, c, other)) {
      chains.linkLocked(x);
    }
    chains.dropLocked(b);
    chains.dropLocked(c);
    chains.dropLocked(c);
    assertEquals(List.of(a), chains.takeLocked("f"));
    chains.dropLocked(a); // after its chain was taken: nothing left to unlink
    assertEquals(List.of(other), chains.takeLocked("g"));
    assertEquals(0, chains.fileCountLocked());
  }

  @Test
  void droppingTheLastBlockOfAFileForgetsTheFile() {
    ChainedBlock only = block("f", 0);
    chains.linkLocked(only);
    chains.dropLocked(only);
    assertEquals(0, chains.fileCountLocked());
  }
}
