package dev.blockcache.buffer;

import io.netty.buffer.ByteBuf;

/**
 * A {@link BlockBuf} whose {@link ViewOwner} is told, once, when the view's last reference is released: what an L2
 * hands out over a slot it must not reuse while a reader holds it. Views with no owner (heap blocks, whose memory
 * the garbage collector keeps alive) are plain {@link BlockBuf}s, 12 bytes smaller.
 *
 * <p>Thread-safety: as {@link BlockBuf}.
 */
final class OwnedBlockBuf extends BlockBuf {
  private final ViewOwner owner;
  private final long token;

  OwnedBlockBuf(ByteBuf backing, int offset, int length, ViewOwner owner, long token) {
    super(backing, null, offset, length);
    this.owner = owner;
    this.token = token;
  }

  @Override
  protected void deallocate() {
    super.deallocate();
    owner.viewReleased(token);
  }

  /** No: deallocating twice would tell the owner twice, which could free a slot another reader holds. */
  @Override
  protected boolean releasesPlainly() {
    return false;
  }
}
