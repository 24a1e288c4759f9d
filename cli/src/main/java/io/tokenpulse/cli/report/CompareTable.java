package io.tokenpulse.cli.report;

import io.tokenpulse.aggregator.report.BenchResult;
import io.tokenpulse.runner.UserError;
import io.tokenpulse.schemas.python.PythonFloat;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

/**
 * The table of {@code tokenpulse compare}: the columns of published vLLM comparison tables (as in Mooncake's vLLM benchmark results), one row per result, as markdown, CSV
 * or an HTML table. A figure a source does not have is NaN and shows as a blank cell; an optional
 * column (TTFO) shows only when a row has it, so tables without it keep exactly those columns.
 */
public final class CompareTable {

    /**
     * Those tables' columns in their order, the one list of them (compare, the sweep's summary, the report). {@code width} is the width of the column's cells in Mooncake's published table's
     * rows (between the bars, spaces included), so that a table made here lines up with, and can be
     * pasted into, the one people keep by hand; a longer text widens its cell.
     */
    public enum Column {
        SUCCESSFUL("Successful Requests", "completed", 21, true, BenchResult::completed),
        DURATION("Duration (s)", "duration", 14, false, BenchResult::duration),
        INPUT_TOKENS("Total Input Tokens", "total_input_tokens", 20, true, BenchResult::totalInputTokens),
        OUTPUT_TOKENS("Total Generated Tokens", "total_output_tokens", 24, true, BenchResult::totalOutputTokens),
        REQUEST_THROUGHPUT("Req Throughput (req/s)", "request_throughput", 24, false, BenchResult::requestThroughput),
        OUTPUT_THROUGHPUT(
                "Output Token Throughput (tok/s)", "output_throughput", 33, false, BenchResult::outputThroughput),
        TOTAL_THROUGHPUT(
                "Total Token Throughput (tok/s)",
                "total_token_throughput",
                30,
                false,
                BenchResult::totalTokenThroughput),
        MEAN_TTFT("Mean TTFT (ms)", "mean_ttft_ms", 16, false, r -> r.ttft().meanMs()),
        MEDIAN_TTFT(
                "Median TTFT (ms)", "median_ttft_ms", 18, false, r -> r.ttft().medianMs()),
        P99_TTFT("P99 TTFT (ms)", "p99_ttft_ms", 14, false, r -> r.ttft().p99Ms()),
        // a reasoning model's time to first output token (extension; AIPerf's TTFO)
        MEAN_TTFO(
                "Mean TTFO (ms)", "mean_ttfo_ms", 16, false, true, r -> r.ttfo().meanMs()),
        MEDIAN_TTFO(
                "Median TTFO (ms)",
                "median_ttfo_ms",
                18,
                false,
                true,
                r -> r.ttfo().medianMs()),
        P99_TTFO("P99 TTFO (ms)", "p99_ttfo_ms", 14, false, true, r -> r.ttfo().p99Ms()),
        MEAN_TPOT("Mean TPOT (ms)", "mean_tpot_ms", 15, false, r -> r.tpot().meanMs()),
        MEDIAN_TPOT(
                "Median TPOT (ms)", "median_tpot_ms", 18, false, r -> r.tpot().medianMs()),
        P99_TPOT("P99 TPOT (ms)", "p99_tpot_ms", 14, false, r -> r.tpot().p99Ms()),
        MEAN_ITL("Mean ITL (ms)", "mean_itl_ms", 15, false, r -> r.itl().meanMs()),
        MEDIAN_ITL("Median ITL (ms)", "median_itl_ms", 17, false, r -> r.itl().medianMs()),
        P99_ITL("P99 ITL (ms)", "p99_itl_ms", 13, false, r -> r.itl().p99Ms()),
        // an audio run's inverse real-time factor (current vLLM's RTFx); 0 means no audio: a blank cell
        RTFX("RTFx", "rtfx", 8, false, true, r -> r.rtfx() > 0 ? r.rtfx() : Double.NaN);

        static final String LABEL = "Backend/Setting";
        static final int LABEL_WIDTH = 62;

        public final String header;
        /** The figure's key in a current vLLM (and TokenPulse) result file. */
        public final String key;

        final int width;
        public final boolean count;
        /** Not one of the published tables': shown only when some row has the figure. */
        final boolean optional;

        private final ToDoubleFunction<BenchResult> figure;

        Column(String header, String key, int width, boolean count, ToDoubleFunction<BenchResult> figure) {
            this(header, key, width, count, false, figure);
        }

        Column(
                String header,
                String key,
                int width,
                boolean count,
                boolean optional,
                ToDoubleFunction<BenchResult> figure) {
            this.header = header;
            this.key = key;
            this.width = width;
            this.count = count;
            this.optional = optional;
            this.figure = figure;
        }

        /** The column's figure of {@code result}; NaN when the result does not have it. */
        public double of(BenchResult result) {
            return figure.applyAsDouble(result);
        }

        /** The column whose figure is under {@code key} in a result file. */
        public static Column byKey(String key) {
            return Arrays.stream(values())
                    .filter(column -> column.key.equals(key))
                    .findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no column has the key " + key));
        }

        /** The published tables' columns, and each optional column that {@code present} says some row has, in order. */
        public static List<Column> shown(Predicate<Column> present) {
            return Arrays.stream(values())
                    .filter(column -> !column.optional || present.test(column))
                    .toList();
        }

        /** The figure as the published tables write it: counts as integers, everything else with two decimals. */
        String format(double value) {
            if (Double.isNaN(value)) {
                return "";
            }
            return count && value == Math.rint(value) ? Long.toString((long) value) : PythonFloat.twoDecimals(value);
        }
    }

    /** One compared result: its label and one figure per {@link Column} (NaN when missing). */
    public record Row(String label, double[] values) {
        public Row {
            if (values.length != Column.values().length) {
                throw new IllegalArgumentException("one value per column expected, got " + values.length);
            }
            values = values.clone();
        }

        double value(Column column) {
            return values[column.ordinal()];
        }
    }

    public enum Format {
        MD,
        CSV,
        HTML;

        public static Format parse(String text) {
            try {
                return valueOf(text.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw UserError.usage("--format must be md, csv or html, got '" + text + "'");
            }
        }
    }

    private final List<Row> rows;
    private final OptionalInt baseline;
    private final List<Column> columns;

    /**
     * @param baseline the index (0-based) of the row the others are compared with, if any
     */
    public CompareTable(List<Row> rows, OptionalInt baseline) {
        this.rows = List.copyOf(rows);
        this.baseline = baseline;
        this.columns = Column.shown(column -> this.rows.stream().anyMatch(row -> !Double.isNaN(row.value(column))));
    }

    public String render(Format format) {
        return switch (format) {
            case MD -> markdown();
            case CSV -> csv();
            case HTML -> html();
        };
    }

    /** The relative change of {@code value} against the baseline row's, as {@code +4.1%}; empty without one. */
    String delta(int row, Column column) {
        if (baseline.isEmpty() || row == baseline.getAsInt()) {
            return "";
        }
        double base = rows.get(baseline.getAsInt()).value(column);
        double value = rows.get(row).value(column);
        if (Double.isNaN(base) || Double.isNaN(value) || base == 0) {
            return "";
        }
        double percent = (value - base) / base * 100;
        return (percent >= 0 ? "+" : "") + String.format(Locale.ROOT, "%.1f%%", percent);
    }

    private String cell(int row, Column column) {
        String value = column.format(rows.get(row).value(column));
        String delta = delta(row, column);
        return delta.isEmpty() ? value : value + " (" + delta + ")";
    }

    private static String padded(String text, int width) {
        String cell = " " + text + " ";
        return cell.length() >= width ? cell : cell + " ".repeat(width - cell.length());
    }

    private String markdown() {
        StringBuilder header = new StringBuilder("|").append(padded(Column.LABEL, Column.LABEL_WIDTH));
        StringBuilder rule = new StringBuilder("|")
                .append("-".repeat(padded(Column.LABEL, Column.LABEL_WIDTH).length()));
        for (Column column : columns) {
            String cell = padded(column.header, column.width);
            header.append('|').append(cell);
            rule.append('|').append("-".repeat(cell.length()));
        }
        StringBuilder out =
                new StringBuilder().append(header).append("|\n").append(rule).append("|\n");
        for (int r = 0; r < rows.size(); r++) {
            out.append('|').append(padded(rows.get(r).label(), Column.LABEL_WIDTH));
            for (Column column : columns) {
                out.append('|').append(padded(cell(r, column), column.width));
            }
            out.append("|\n");
        }
        return out.toString();
    }

    private String csv() {
        List<String> header = new ArrayList<>(List.of(Column.LABEL));
        for (Column column : columns) {
            header.add(column.header);
            if (baseline.isPresent()) {
                header.add(column.header + " vs baseline");
            }
        }
        StringBuilder out = new StringBuilder(csvLine(header));
        for (int r = 0; r < rows.size(); r++) {
            List<String> line = new ArrayList<>(List.of(rows.get(r).label()));
            for (Column column : columns) {
                line.add(column.format(rows.get(r).value(column)));
                if (baseline.isPresent()) {
                    line.add(delta(r, column));
                }
            }
            out.append(csvLine(line));
        }
        return out.toString();
    }

    private static String csvLine(List<String> cells) {
        return String.join(",", cells.stream().map(CompareTable::csvCell).toList()) + "\n";
    }

    /** RFC 4180: a cell with a comma, quote or line break is quoted, its quotes doubled. */
    private static String csvCell(String text) {
        return text.contains(",") || text.contains("\"") || text.contains("\n")
                ? "\"" + text.replace("\"", "\"\"") + "\""
                : text;
    }

    /** The table as an HTML {@code <table>} element (no page around it). */
    String htmlTable() {
        StringBuilder out = new StringBuilder("<table class=\"compare\">\n<thead><tr><th>")
                .append(Html.escape(Column.LABEL))
                .append("</th>");
        for (Column column : columns) {
            out.append("<th>").append(Html.escape(column.header)).append("</th>");
        }
        out.append("</tr></thead>\n<tbody>\n");
        for (int r = 0; r < rows.size(); r++) {
            out.append("<tr")
                    .append(baseline.isPresent() && baseline.getAsInt() == r ? " class=\"baseline\"" : "")
                    .append("><td>")
                    .append(Html.escape(rows.get(r).label()))
                    .append("</td>");
            for (Column column : columns) {
                String delta = delta(r, column);
                out.append("<td>").append(Html.escape(column.format(rows.get(r).value(column))));
                if (!delta.isEmpty()) {
                    out.append(" <small>").append(Html.escape(delta)).append("</small>");
                }
                out.append("</td>");
            }
            out.append("</tr>\n");
        }
        return out.append("</tbody>\n</table>\n").toString();
    }

    private String html() {
        return Html.page("TokenPulse compare", "<h1>Compare</h1>\n" + htmlTable(), "");
    }
}
