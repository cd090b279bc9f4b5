package dev.blockcache.hbase.clients.fs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The delayed filesystem: installed for {@code file:}, it delays a store file's positional reads by at least the
 * modelled device's shortest service time and returns the right bytes; other files and the {@code none} device read
 * through; a bad device name fails naming the key, the value and what is accepted. Only lower bounds on time are
 * asserted: a loaded machine can only make a read slower.
 *
 * <p>Thread-safety: JUnit's thread only.
 */
@Tag("org.apache.hadoop.hbase.testclassification.SmallTests")
class DelayedLocalFileSystemTest {
  @TempDir
  Path dir;

  @AfterEach
  void dropCachedFileSystems() throws Exception {
    FileSystem.closeAll();
  }

  @Test
  void storeFilePreadsWaitForTheModelledDeviceAndReturnTheBytes() throws Exception {
    Path store = Files.createDirectories(dir.resolve("data/default/t/0123abcd/f")).resolve("hfile1");
    byte[] content = new byte[8192];
    for (int i = 0; i < content.length; i++) {
      content[i] = (byte) (i * 7);
    }
    Files.write(store, content);
    Configuration conf = new Configuration(false);
    DelayedLocalFileSystem.install(conf, "hdd");
    FileSystem fs = FileSystem.get(store.toUri(), conf);
    assertInstanceOf(DelayedLocalFileSystem.class, fs);
    // HBase reads store files under the checksum layer (its own block checksums replace it): the raw filesystem.
    FileSystem raw = ((DelayedLocalFileSystem) fs).getRawFileSystem();
    try (FSDataInputStream in = raw.open(new org.apache.hadoop.fs.Path(store.toUri()))) {
      byte[] read = new byte[4096];
      long readsBefore = DelayedLocalFileSystem.deviceReads();
      long start = System.nanoTime();
      in.readFully(1024, read, 0, read.length);
      long nanos = System.nanoTime() - start;
      assertEquals(readsBefore + 1, DelayedLocalFileSystem.deviceReads(), "one pread, one device read");
      assertTrue(nanos >= 2_000_000, "an HDD read took " + nanos + " ns, below its 2 ms shortest service time");
      byte[] expected = new byte[4096];
      System.arraycopy(content, 1024, expected, 0, expected.length);
      assertArrayEquals(expected, read);
    }
  }

  @Test
  void onlyStoreFilesAreDelayed() {
    assertTrue(DelayedLocalFileSystem.isStoreFile(new org.apache.hadoop.fs.Path("/r/data/default/t/reg/f/hfile")));
    assertFalse(DelayedLocalFileSystem.isStoreFile(new org.apache.hadoop.fs.Path("/r/data/default/t/reg/.regioninfo")));
    assertFalse(DelayedLocalFileSystem.isStoreFile(new org.apache.hadoop.fs.Path("/r/WALs/rs,1,2/rs%2C1.123")));
    assertFalse(DelayedLocalFileSystem.isStoreFile(new org.apache.hadoop.fs.Path("/r/data/default/t/reg/.tmp/f/x")));
  }

  @Test
  void aBadDeviceNamesTheKeyTheValueAndWhatIsAccepted() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DelayedLocalFileSystem.install(new Configuration(false), "ssd"));
    assertEquals("blockcache.fs.read.device='ssd': expected one of none, sata-ssd, hdd, nvme", e.getMessage());
  }
}
