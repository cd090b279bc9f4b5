package dev.blockcache.jmh.file;

/**
 * One competitor of {@link FileEngineGetBenchmark}: reads block {@code i} of a pre-populated file and returns its
 * length, releasing whatever it allocated.
 *
 * <p>Thread-safety: {@link #read} is called by every benchmark thread concurrently.
 */
interface FileReader extends AutoCloseable {
  int read(int block);

  @Override
  void close();
}
