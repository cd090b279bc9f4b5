package dev.blockcache.sizing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ByteSizesTest {
  @Test
  void threeSignificantFiguresInTheLargestUnitBelow1024() {
    assertEquals("1023 B", ByteSizes.format(1023));
    assertEquals("64.0 KiB", ByteSizes.format(65_536));
    assertEquals("100 MiB", ByteSizes.format(100L << 20));
    assertEquals("6.40 GiB", ByteSizes.format(6_871_947_776L));
    assertEquals("2.00 TiB", ByteSizes.format(2L << 40));
  }

  @Test
  void aValueThatWouldRoundTo1024MovesToTheNextUnit() {
    // 1,073,737,728 B is 1023.996 MiB: "1.00 GiB", never "1024 MiB".
    assertEquals("1.00 GiB", ByteSizes.format(1_073_737_728L));
    assertEquals("1,073,737,728 bytes (1.00 GiB)", ByteSizes.exact(1_073_737_728L));
  }
}
