package dev.blockcache.sim;

import dev.blockcache.sim.policy.PolicyKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The hit-ratio targets the report checks in every row (trace and size), each a cache against the reference policies
 * replayed on the same trace at the same size:
 * <ul>
 *   <li><b>L2</b> ≥ max(LRU, Caffeine) − {@value #TOLERANCE} point: the L2 never falls below the better of plain LRU
 *       (HBase's BucketCache is LRU-like) and W-TinyLFU.</li>
 *   <li><b>L1 LRU</b> ≥ min(LRU, HBase LRU) − {@value #TOLERANCE}: HBase's single / multi / memory shares make its
 *       LruBlockCache differ from plain LRU, so the better bar the L1 LRU can be held to is the lower of the two.</li>
 *   <li><b>L1 TinyLFU</b> ≥ Caffeine − {@value #TOLERANCE}.</li>
 * </ul>
 * A target whose cache or references were not replayed in a row is not checked there.
 *
 * <p>Thread-safety: stateless.
 */
final class Targets {
  /** Points a cache may fall below its bar: 0.5, the tolerance. */
  static final double TOLERANCE = 0.5;

  private Targets() {}

  /** One target: a cache and how its bar is computed from a row. */
  enum Target {
    L2(PolicyKind.L2, "L2 ≥ max(LRU, Caffeine) − 0.5") {
      @Override
      double bar(List<HitRatio> row) {
        return Math.max(ratio(row, PolicyKind.LRU), ratio(row, PolicyKind.CAFFEINE));
      }
    },
    L1_LRU(PolicyKind.L1_LRU, "L1 LRU ≥ min(LRU, HBase LRU) − 0.5") {
      @Override
      double bar(List<HitRatio> row) {
        return Math.min(ratio(row, PolicyKind.LRU), ratio(row, PolicyKind.HBASE_LRU));
      }
    },
    L1_TINYLFU(PolicyKind.L1_TINYLFU, "L1 TinyLFU ≥ Caffeine − 0.5") {
      @Override
      double bar(List<HitRatio> row) {
        return ratio(row, PolicyKind.CAFFEINE);
      }
    };

    final PolicyKind cache;
    final String description;

    Target(PolicyKind cache, String description) {
      this.cache = cache;
      this.description = description;
    }

    /** The reference hit ratio (in points) of {@code row}; NaN if a reference was not replayed. */
    abstract double bar(List<HitRatio> row);

    /** The cache's shortfall below its bar less the tolerance, in points (≤ 0: met); NaN if not checked. */
    double shortfall(List<HitRatio> row) {
      return bar(row) - TOLERANCE - ratio(row, cache);
    }
  }

  /** The policy's hit ratio in {@code row}, in points; NaN if it was not replayed. */
  static double ratio(List<HitRatio> row, PolicyKind policy) {
    for (HitRatio r : row) {
      if (r.policy() == policy) {
        return 100 * r.ratio();
      }
    }
    return Double.NaN;
  }

  /** The row's missed targets with their shortfall ({@code L2 −0.72}), or {@code ok}; empty if none was checked. */
  static String cell(List<HitRatio> row) {
    List<String> missed = new ArrayList<>();
    boolean checked = false;
    for (Target t : Target.values()) {
      double s = t.shortfall(row);
      if (Double.isNaN(s)) {
        continue;
      }
      checked = true;
      if (s > 0) {
        missed.add(String.format(Locale.ROOT, "%s −%.2f", t.cache.label(), s));
      }
    }
    return !checked ? "" : missed.isEmpty() ? "ok" : String.join(", ", missed);
  }

  /** One line per target checked in {@code rows}: rows met of rows checked, and the rows missed. */
  static String summary(List<List<HitRatio>> rows) {
    StringBuilder md = new StringBuilder();
    for (Target t : Target.values()) {
      int checked = 0;
      List<String> missed = new ArrayList<>();
      for (List<HitRatio> row : rows) {
        double s = t.shortfall(row);
        if (Double.isNaN(s)) {
          continue;
        }
        checked++;
        if (s > 0) {
          HitRatio first = row.get(0);
          missed.add(first.trace() + " " + HitRatioReport.percent(first.fraction()));
        }
      }
      if (checked > 0) {
        md.append(String.format(Locale.ROOT, "- %s: %d of %d rows%s%n", t.description, checked - missed.size(),
            checked, missed.isEmpty() ? "" : "; missed: " + String.join(", ", missed)));
      }
    }
    return md.toString();
  }
}
