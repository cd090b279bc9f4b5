package dev.blockcache.jmh.experiments;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;

/**
 * Draws the experiment charts as PNG files with XChart.
 *
 * <p>Thread-safety: stateless; XChart renders headless (the caller sets {@code java.awt.headless}).
 */
final class ExperimentCharts {
  private static final int WIDTH = 720;
  private static final int HEIGHT = 420;

  /** The y axis of a chart. */
  enum Scale {
    LINEAR, LOG
  }

  private ExperimentCharts() {}

  /** Grouped bars: one category per setting, one series per block size; values in rows/s. */
  static void bars(Path png, String title, List<String> categories, List<String> series, double[][] values)
      throws IOException {
    bars(png, title, "setting", "rows/s", categories, series, values);
  }

  /** Grouped bars: one category per x value, one series per row of {@code values}. */
  static void bars(Path png, String title, String xTitle, String yTitle, List<String> categories,
      List<String> series, double[][] values) throws IOException {
    CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(title)
        .xAxisTitle(xTitle).yAxisTitle(yTitle).build();
    for (int s = 0; s < series.size(); s++) {
      chart.addSeries(series.get(s), categories, toList(values[s]));
    }
    BitmapEncoder.saveBitmap(chart, png.toString(), BitmapFormat.PNG);
  }

  /** Lines over thread counts, one per series; values in rows/s. */
  static void lines(Path png, String title, int[] threads, List<String> series, double[][] values)
      throws IOException {
    lines(png, title, "rows/s", Scale.LINEAR, threads, series, values);
  }

  /** Lines over thread counts, one per series. */
  static void lines(Path png, String title, String yTitle, Scale scale, int[] threads, List<String> series,
      double[][] values) throws IOException {
    XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title)
        .xAxisTitle("threads").yAxisTitle(yTitle).build();
    chart.getStyler().setYAxisLogarithmic(scale == Scale.LOG);
    double[] x = new double[threads.length];
    for (int i = 0; i < threads.length; i++) {
      x[i] = threads[i];
    }
    for (int s = 0; s < series.size(); s++) {
      chart.addSeries(series.get(s), x, values[s]);
    }
    BitmapEncoder.saveBitmap(chart, png.toString(), BitmapFormat.PNG);
  }

  private static List<Double> toList(double[] values) {
    Double[] boxed = new Double[values.length];
    for (int i = 0; i < values.length; i++) {
      boxed[i] = values[i];
    }
    return List.of(boxed);
  }
}
