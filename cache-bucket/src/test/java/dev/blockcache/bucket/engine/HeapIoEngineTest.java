package dev.blockcache.bucket.engine;

class HeapIoEngineTest extends IoEngineContractTest {
  @Override
  protected IoEngine newEngine(long capacity, int segmentSize) {
    return new HeapIoEngine(capacity, segmentSize);
  }
}
