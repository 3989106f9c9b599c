package org.rouse.benchmarks.report;

import java.util.Locale;
import java.util.Optional;
import org.rouse.benchmarks.scenario.Metric;

/** Formats values for table cells: fixed decimals, root locale (dots, never commas), {@code n/a} for unknown. */
final class Cells {

    static final String UNKNOWN = "n/a";

    private Cells() {}

    /** For the Markdown table: the metric's decimals. */
    static String markdown(Metric metric, double value) {
        return fixed(value, metric.decimals());
    }

    /** For a ratio column, e.g. {@code 1.37×}. */
    static String ratio(double value) {
        return Double.isNaN(value) ? UNKNOWN : fixed(value, 2) + "×";
    }

    /** A ratio followed by its spread (ResultTable.pairedRange), e.g. {@code 0.94× (0.90–0.99)}; alone without one. */
    static String ratio(double value, Optional<ResultTable.PairedRange> range) {
        if (Double.isNaN(value) || range.isEmpty()) {
            return ratio(value);
        }
        return ratio(value) + " (" + fixed(range.get().lowest(), 2) + "–"
                + fixed(range.get().highest(), 2) + ")";
    }

    /** For CSV: full precision without exponent noise for ordinary values; empty when unknown. */
    static String csv(double value) {
        if (Double.isNaN(value)) {
            return "";
        }
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            return Long.toString((long) value);
        }
        return String.format(Locale.ROOT, "%.6f", value).replaceAll("0+$", "");
    }

    static String fixed(double value, int decimals) {
        if (Double.isNaN(value)) {
            return UNKNOWN;
        }
        return String.format(Locale.ROOT, "%." + decimals + "f", value);
    }
}
