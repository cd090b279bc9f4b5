package dev.blockcache.hbase;

import dev.blockcache.testing.PackageCycles;
import org.junit.jupiter.api.Test;

/** This module's packages import each other in layers only (docs/architecture.md). */
class NoPackageCycleTest {
  @Test
  void noPackageOfThisModuleReachesItselfThroughImports() {
    PackageCycles.assertNoCycle();
  }
}
