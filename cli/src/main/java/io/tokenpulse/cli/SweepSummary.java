package io.tokenpulse.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import io.tokenpulse.aggregator.report.BenchResult;
import io.tokenpulse.charts.ParetoChart;
import io.tokenpulse.charts.SweepChart;
import io.tokenpulse.cli.report.CompareTable.Column;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.descriptive.SummaryStatistics;

/**
 * The sweep's summary table: one row per point, the swept values, then the columns of published vLLM comparison tables
 * ({@link Column}, as {@code compare} shows them: TTFO only when a point has it) read from
 * the points' result files. With several runs per point a cell is {@code mean ± half-width} of the
 * 95 % confidence interval (Student t with n - 1 degrees of freedom); a metric no run has is blank.
 */
final class SweepSummary {

    /** A point's swept values and the results of its finished runs. */
    record Row(Map<String, String> params, List<BenchResult> runs) {}

    /** The mean of a metric over the runs that have it, and the half-width of its 95 % interval (0 for one run). */
    record Estimate(double mean, double halfWidth, long n) {

        static Estimate of(List<Double> values) {
            SummaryStatistics stats = new SummaryStatistics();
            values.forEach(stats::addValue);
            long n = stats.getN();
            double half = n < 2
                    ? 0
                    : new TDistribution(n - 1).inverseCumulativeProbability(0.975)
                            * stats.getStandardDeviation()
                            / Math.sqrt(n);
            return new Estimate(stats.getMean(), half, n);
        }
    }

    /** Each row a list of cells; quoting as RFC 4180. */
    private static final CsvMapper CSV = new CsvMapper();

    private final List<String> swept;
    private final List<Row> rows;
    private final boolean repeated;
    private final List<Column> columns;

    SweepSummary(List<String> swept, List<Row> rows, int numRuns) {
        this.swept = swept;
        this.rows = rows;
        this.repeated = numRuns > 1;
        this.columns = Column.shown(
                column -> rows.stream().anyMatch(row -> estimate(row, column).isPresent()));
    }

    /** The table in markdown, as the published tables show it (with a Runs column when points repeat). */
    String markdown() {
        List<String> header = new ArrayList<>(swept);
        if (repeated) {
            header.add("Runs");
        }
        for (Column column : columns) {
            header.add(column.header);
        }
        StringBuilder md = new StringBuilder();
        md.append("| ").append(String.join(" | ", header)).append(" |\n");
        md.append("|").append("---|".repeat(header.size())).append('\n');
        for (Row row : rows) {
            List<String> cells = new ArrayList<>();
            swept.forEach(p -> cells.add(row.params().getOrDefault(p, "")));
            if (repeated) {
                cells.add(String.valueOf(row.runs().size()));
            }
            for (Column column : columns) {
                cells.add(estimate(row, column)
                        .map(e -> format(e.mean(), column.count && e.n() == 1)
                                + (e.n() > 1 ? " ± " + format(e.halfWidth(), false) : ""))
                        .orElse(""));
            }
            md.append("| ").append(String.join(" | ", cells)).append(" |\n");
        }
        return md.toString();
    }

    /** The same table as CSV: plain numbers, and a {@code ±95%} column after each metric when points repeat. */
    String csv() {
        List<String> header = new ArrayList<>(swept);
        header.add("Runs");
        for (Column column : columns) {
            header.add(column.header);
            if (repeated) {
                header.add(column.header + " ±95%");
            }
        }
        List<List<String>> lines = new ArrayList<>();
        lines.add(header);
        for (Row row : rows) {
            List<String> cells = new ArrayList<>();
            swept.forEach(p -> cells.add(row.params().getOrDefault(p, "")));
            cells.add(String.valueOf(row.runs().size()));
            for (Column column : columns) {
                var e = estimate(row, column);
                cells.add(e.map(v -> format(v.mean(), column.count && v.n() == 1))
                        .orElse(""));
                if (repeated) {
                    cells.add(e.map(v -> format(v.halfWidth(), false)).orElse(""));
                }
            }
            lines.add(cells);
        }
        return csv(lines);
    }

    /**
     * The points for {@link SweepChart}: x is the first swept variable, the line groups are the other
     * swept values, each metric the mean over the point's runs; empty when the first variable is not a
     * number (a setting name) or no point has a result.
     */
    List<SweepChart.Point> chartPoints() {
        if (swept.isEmpty()) {
            return List.of();
        }
        String x = swept.get(0);
        List<SweepChart.Point> points = new ArrayList<>();
        for (Row row : rows) {
            String value = row.params().getOrDefault(x, "");
            if (!value.matches("-?\\d+(\\.\\d+)?")) {
                return List.of();
            }
            if (row.runs().isEmpty()) {
                continue;
            }
            Map<String, Double> means = new LinkedHashMap<>();
            for (String key : SweepChart.KEYS) {
                estimate(row, Column.byKey(key)).ifPresent(e -> means.put(key, e.mean()));
            }
            String group = String.join(
                    ",",
                    swept.subList(1, swept.size()).stream()
                            .map(p -> p + "=" + row.params().getOrDefault(p, ""))
                            .toList());
            points.add(new SweepChart.Point(Double.parseDouble(value), group, means));
        }
        return points;
    }

    /** The points of {@link ParetoChart}, from each point's mean TPOT and total token throughput (run means). */
    List<ParetoChart.Point> paretoPoints() {
        List<ParetoChart.Point> points = new ArrayList<>();
        for (Row row : rows) {
            var tpot = estimate(row, Column.MEAN_TPOT);
            var total = estimate(row, Column.TOTAL_THROUGHPUT);
            if (tpot.isPresent() && total.isPresent()) {
                String label = String.join(
                        ",",
                        swept.stream()
                                .map(p -> p + "=" + row.params().getOrDefault(p, ""))
                                .toList());
                ParetoChart.point(label, tpot.get().mean(), total.get().mean()).ifPresent(points::add);
            }
        }
        return points;
    }

    private static Optional<Estimate> estimate(Row row, Column column) {
        List<Double> values = new ArrayList<>();
        for (BenchResult run : row.runs()) {
            double value = column.of(run);
            if (!Double.isNaN(value)) {
                values.add(value);
            }
        }
        return values.isEmpty() ? Optional.empty() : Optional.of(Estimate.of(values));
    }

    private static String format(double value, boolean integer) {
        return integer ? String.valueOf(Math.round(value)) : String.format(Locale.ROOT, "%.2f", value);
    }

    private static String csv(List<List<String>> lines) {
        try {
            return CSV.writeValueAsString(lines);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("strings always serialize", e);
        }
    }
}
