package dev.blockcache.sim.trace;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.XZOutputStream;

/** Every trace format on a small synthetic input, plain and compressed. */
class TraceFormatTest {
  @TempDir Path dir;

  private static long[] keys(Trace trace) {
    long[] keys = new long[trace.length()];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = trace.key(i);
    }
    return keys;
  }

  private Trace read(TraceFormat format, String file, byte[] content) throws IOException {
    return read(format, file, content, Integer.MAX_VALUE);
  }

  private Trace read(TraceFormat format, String file, byte[] content, int maxEvents) throws IOException {
    Path path = dir.resolve(file);
    try (OutputStream out = compressing(path)) {
      out.write(content);
    }
    return TraceSpec.parse(format.id() + ":" + path, dir).read(maxEvents);
  }

  private static OutputStream compressing(Path path) throws IOException {
    OutputStream raw = Files.newOutputStream(path);
    String name = path.getFileName().toString();
    if (name.endsWith(".gz")) {
      return new GZIPOutputStream(raw);
    }
    return name.endsWith(".xz") ? new XZOutputStream(raw, new LZMA2Options()) : raw;
  }

  private static byte[] text(String lines) {
    return lines.getBytes(StandardCharsets.US_ASCII);
  }

  @Test
  void textKeepsNumbersAndHashesOtherLines() throws IOException {
    Trace trace = read(TraceFormat.TEXT, "keys.txt", text("7\n\n  -3 \nuser:42\n7\r\nuser:42\nuser:43\n"));
    long[] keys = keys(trace);
    assertEquals(6, keys.length);
    assertArrayEquals(new long[] {7, -3}, new long[] {keys[0], keys[1]});
    assertEquals(keys[2], keys[4]);
    assertNotEquals(keys[2], keys[5]);
    assertEquals(7, keys[3]);
    assertEquals(4, trace.distinctKeys());
  }

  @Test
  void lirsSkipsPhaseSeparatorsAndBlankLines() throws IOException {
    Trace trace = read(TraceFormat.LIRS, "t.trace.gz", text("0\n1\n*\n\n2\r\n1\n"));
    assertArrayEquals(new long[] {0, 1, 2, 1}, keys(trace));
    assertEquals(3, trace.distinctKeys());
  }

  @Test
  void addressTakesTheHexAddressWhateverTheOperation() throws IOException {
    Trace trace = read(TraceFormat.ADDRESS, "a.trace.gz", text("s 0x1fffff78 1\nl 0x1fffff80 1\nl 0xffffffffffffffff 6\n"));
    assertArrayEquals(new long[] {0x1fffff78L, 0x1fffff80L, -1L}, keys(trace));
  }

  @Test
  void gradleFoldsA128BitKeyIntoItsHalves() throws IOException {
    Trace trace = read(TraceFormat.GRADLE, "build-cache.xz",
        text("d05fdfe4022d6da89116ccbd91a8df8b\n00000000000000010000000000000002\nff\n"));
    assertArrayEquals(new long[] {0xd05fdfe4022d6da8L ^ 0x9116ccbd91a8df8bL, 1 ^ 2, 0xff}, keys(trace));
  }

  @Test
  void cache2kIsBigEndianInt32() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeInt(1);
    out.writeInt(0x01020304);
    out.writeInt(-2);
    Trace trace = read(TraceFormat.CACHE2K, "web.trace.xz", bytes.toByteArray());
    assertArrayEquals(new long[] {1, 0x01020304, -2}, keys(trace));
  }

  @Test
  void cordaAndScarabAreBigEndianInt64() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeLong(0x391c8ee0c57542c7L);
    out.writeLong(5);
    out.writeLong(0x391c8ee0c57542c7L);
    long[] expected = {0x391c8ee0c57542c7L, 5, 0x391c8ee0c57542c7L};
    assertArrayEquals(expected, keys(read(TraceFormat.CORDA, "trace_vaultservice.gz", bytes.toByteArray())));
    assertArrayEquals(expected, keys(read(TraceFormat.SCARAB, "recs.trace.xz", bytes.toByteArray())));
  }

  @Test
  void maxEventsCapsTheTrace() throws IOException {
    assertArrayEquals(new long[] {5, 6}, keys(read(TraceFormat.LIRS, "cap.trace", text("5\n6\n7\n8\n"), 2)));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    new DataOutputStream(bytes).writeLong(9);
    bytes.write(new byte[8]);
    assertArrayEquals(new long[] {9}, keys(read(TraceFormat.CORDA, "cap.bin", bytes.toByteArray(), 1)));
  }

  @Test
  void aBadLineIsReportedWithItsNumber() {
    IOException e = assertThrows(IOException.class, () -> read(TraceFormat.LIRS, "bad.trace", text("1\n2\nx3\n")));
    assertTrue(e.getMessage().contains("line 3 'x3'"), e.getMessage());
    assertThrows(IOException.class, () -> read(TraceFormat.ADDRESS, "bad.address", text("l 1234 4\n")));
  }

  @Test
  void aTruncatedBinaryRecordFailsTheRead() {
    IOException e = assertThrows(IOException.class,
        () -> read(TraceFormat.SCARAB, "short.bin", new byte[] {0, 0, 0, 0, 0, 0, 0, 1, 0, 0}));
    assertTrue(e.getMessage().contains("truncated record: 2 of 8 bytes after 1 keys"), e.getMessage());
  }

  @Test
  void anEmptyTraceIsAnError() {
    assertThrows(IOException.class, () -> read(TraceFormat.TEXT, "empty.txt", text("\n\n")));
  }
}
