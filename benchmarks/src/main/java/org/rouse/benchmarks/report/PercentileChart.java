package org.rouse.benchmarks.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.Locale;
import java.util.Optional;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.renderer.category.LineAndShapeRenderer;
import org.jfree.data.category.DefaultCategoryDataset;
import org.rouse.benchmarks.measure.LatencyHistogram;
import org.rouse.benchmarks.scenario.VariantSummary;

/**
 * Draws latency percentiles per variant (p50 ... p99.99 and max of all measured rounds merged) as lines on a
 * logarithmic µs axis: the shape of the tail is what a table of medians hides.
 *
 * <pre>{@code
 * if (PercentileChart.write(table, dir.resolve("wakeup-floor.png"))) { ... }
 * }</pre>
 */
public final class PercentileChart {

    private static final double[] PERCENTILES = {50, 90, 99, 99.9, 99.99};
    /** Colours that stay apart on white (Okabe-Ito, colour-blind safe). */
    private static final Color[] PALETTE = {
        new Color(0x000000),
        new Color(0xE69F00),
        new Color(0x56B4E9),
        new Color(0x009E73),
        new Color(0xD55E00),
        new Color(0x0072B2),
        new Color(0xCC79A7),
        new Color(0xF0E442)
    };

    private static final int WIDTH = 1000;
    private static final int HEIGHT = 600;
    /** The log axis cannot show zero: values below this are drawn at it. */
    private static final double FLOOR_MICROS = 0.1;

    private PercentileChart() {}

    /**
     * Writes the chart as PNG if any variant has latency samples.
     *
     * @return whether a file was written
     */
    public static boolean write(ResultTable table, Path png) throws IOException {
        DefaultCategoryDataset dataset = new DefaultCategoryDataset();
        for (VariantSummary row : table.rows()) {
            Optional<LatencyHistogram> latency = row.latency();
            if (latency.isEmpty() || latency.get().count() == 0) {
                continue;
            }
            for (double p : PERCENTILES) {
                dataset.addValue(plotted(latency.get().percentileMicros(p)), row.name(), label(p));
            }
            dataset.addValue(plotted(latency.get().maxMicros()), row.name(), "max");
        }
        if (dataset.getRowCount() == 0) {
            return false;
        }
        JFreeChart chart = ChartFactory.createLineChart(
                table.name() + ": latency percentiles (all measured rounds)",
                "percentile",
                "µs (log scale)",
                dataset,
                PlotOrientation.VERTICAL,
                true,
                false,
                false);
        CategoryPlot plot = chart.getCategoryPlot();
        LogAxis axis = new LogAxis("µs (log scale)");
        axis.setBase(10);
        axis.setSmallestValue(FLOOR_MICROS);
        // one labelled tick per decade (1, 10, 100, ...), printed as plain numbers rather than 10^x
        axis.setAutoTickUnitSelection(false);
        axis.setTickUnit(new NumberTickUnit(1.0));
        axis.setNumberFormatOverride(new DecimalFormat("#,##0.#", DecimalFormatSymbols.getInstance(Locale.ROOT)));
        axis.setMinorTickMarksVisible(true);
        axis.setMinorTickCount(9);
        plot.setRangeAxis(axis);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        LineAndShapeRenderer renderer = (LineAndShapeRenderer) plot.getRenderer();
        renderer.setDefaultShapesVisible(true);
        for (int i = 0; i < dataset.getRowCount(); i++) {
            renderer.setSeriesStroke(i, new BasicStroke(2f));
            renderer.setSeriesPaint(i, PALETTE[i % PALETTE.length]);
        }
        ChartUtils.saveChartAsPNG(png.toFile(), chart, WIDTH, HEIGHT);
        return true;
    }

    private static double plotted(double micros) {
        return Math.max(FLOOR_MICROS, micros);
    }

    private static String label(double percentile) {
        return percentile == Math.rint(percentile) ? "p" + (long) percentile : "p" + percentile;
    }
}
