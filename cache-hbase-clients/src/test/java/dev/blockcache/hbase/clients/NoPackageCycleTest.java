package dev.blockcache.hbase.clients;

import dev.blockcache.testing.PackageCycles;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** This module's packages import each other in layers only (docs/architecture.md). */
@Tag("org.apache.hadoop.hbase.testclassification.SmallTests")
class NoPackageCycleTest {
  @Test
  void noPackageOfThisModuleReachesItselfThroughImports() {
    PackageCycles.assertNoCycle();
  }
}
