package dev.blockcache.jmh.experiments;

import site.ycsb.generator.DiscreteGenerator;

/**
 * The YCSB workloads of experiment 4 as operation mixes (YCSB's core workloads A, C and F, and the sizing guide's
 * custom update-only workload); keys are drawn by YCSB's scrambled Zipfian in every workload.
 *
 * <p>Thread-safety: immutable; {@link #chooser()} returns a new generator, which is for one thread only.
 */
public enum YcsbWorkload {
  /** Workload A: 50% reads, 50% updates. */
  A(0.5, 0.5, 0),
  /** Workload C: 100% reads. */
  C(1, 0, 0),
  /** Workload F: 50% reads, 50% read-modify-writes. */
  F(0.5, 0, 0.5),
  /** The guide's custom workload: 100% updates. */
  UPDATE_ONLY(0, 1, 0);

  /** What one YCSB operation does. */
  enum Op { READ, UPDATE, READ_MODIFY_WRITE }

  private final double read;
  private final double update;
  private final double readModifyWrite;

  YcsbWorkload(double read, double update, double readModifyWrite) {
    this.read = read;
    this.update = update;
    this.readModifyWrite = readModifyWrite;
  }

  /** Share of reads in the mix: YCSB's {@code readproportion}. */
  public double readProportion() {
    return read;
  }

  /** Share of updates in the mix: YCSB's {@code updateproportion}. */
  public double updateProportion() {
    return update;
  }

  /** Share of read-modify-writes in the mix: YCSB's {@code readmodifywriteproportion}. */
  public double readModifyWriteProportion() {
    return readModifyWrite;
  }

  /** YCSB's own operation chooser for this mix; not thread-safe (YCSB's generators keep their last value). */
  DiscreteGenerator chooser() {
    DiscreteGenerator g = new DiscreteGenerator();
    if (read > 0) {
      g.addValue(read, Op.READ.name());
    }
    if (update > 0) {
      g.addValue(update, Op.UPDATE.name());
    }
    if (readModifyWrite > 0) {
      g.addValue(readModifyWrite, Op.READ_MODIFY_WRITE.name());
    }
    return g;
  }
}
