package dev.blockcache.jmh.experiments;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What every section of the experiment report shares: number formats, the verdict line, and picking results out of
 * a run by experiment, parameters and thread count.
 *
 * <p>Thread-safety: stateless.
 */
final class ReportText {
  /** A change smaller than this fraction is within the run-to-run noise of a quick run on a shared machine. */
  static final double NOISE = 0.10;

  private ReportText() {}

  /** Appends "- what: measured ×r → **shape reproduced**" (or NOT reproduced). */
  static void verdict(StringBuilder md, String what, double measured, boolean reproduced) {
    md.append("- ").append(what).append(": measured ").append(ratio(measured)).append(" → **")
        .append(reproduced ? "shape reproduced" : "shape NOT reproduced").append("**\n");
  }

  /** The results of {@code experiment} (a class's simple name). */
  static List<ExperimentResult> only(List<ExperimentResult> all, String experiment) {
    List<ExperimentResult> out = new ArrayList<>();
    for (ExperimentResult r : all) {
      if (r.experiment().equals(experiment)) {
        out.add(r);
      }
    }
    return out;
  }

  /**
   * The result with {@code threads} threads (any count if 0) whose parameters include every {@code name, value}
   * pair of {@code params}.
   *
   * @throws IllegalStateException naming what is missing: the experiment's results are incomplete
   */
  static ExperimentResult find(List<ExperimentResult> runs, String experiment, int threads, String... params) {
    for (ExperimentResult r : runs) {
      boolean match = threads == 0 || r.threads() == threads;
      for (int i = 0; match && i < params.length; i += 2) {
        match = params[i + 1].equals(r.params().get(params[i]));
      }
      if (match) {
        return r;
      }
    }
    StringBuilder what = new StringBuilder();
    for (int i = 0; i < params.length; i += 2) {
      what.append(i == 0 ? "" : ", ").append(params[i]).append('=').append(params[i + 1]);
    }
    if (threads != 0) {
      what.append(", threads=").append(threads);
    }
    throw new IllegalStateException(experiment + ": no result for " + what
        + "; run the whole experiment (its parameters were restricted or a benchmark failed)");
  }

  /** A whole number with thousands separators, "—" for NaN. */
  static String fmt(double v) {
    return Double.isNaN(v) ? "—" : String.format(Locale.ROOT, "%,.0f", v);
  }

  /** A number with {@code decimals} decimals, "—" for NaN. */
  static String fmt(double v, int decimals) {
    return Double.isNaN(v) ? "—" : String.format(Locale.ROOT, "%,." + decimals + "f", v);
  }

  /** "×1.23", "—" for NaN. */
  static String ratio(double v) {
    return Double.isNaN(v) ? "—" : String.format(Locale.ROOT, "×%.2f", v);
  }

  /** "98.7%" of a ratio in [0, 1], "—" for NaN. */
  static String percent(double v) {
    return Double.isNaN(v) ? "—" : String.format(Locale.ROOT, "%.1f%%", v * 100);
  }
}
