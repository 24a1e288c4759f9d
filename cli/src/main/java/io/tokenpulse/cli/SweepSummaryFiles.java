package io.tokenpulse.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tokenpulse.aggregator.report.BenchResult;
import io.tokenpulse.aggregator.report.ResultReader;
import io.tokenpulse.charts.ParetoChart;
import io.tokenpulse.charts.SweepChart;
import io.tokenpulse.runner.sweep.SweepFile;
import io.tokenpulse.runner.sweep.SweepFile.Entry;
import io.tokenpulse.runner.sweep.SweepPoint;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A sweep folder's summary files: {@code summary.md} and {@code summary.csv} ({@link SweepSummary}) from
 * the finished runs' result files, with a search's outcome below the table, and the charts.
 */
final class SweepSummaryFiles {

    /** TTFT/TPOT/ITL P50 and P99 and throughput against the first swept variable, when it is a number. */
    static final String CHART = "sweep-chart.png";
    /** Output tokens/s per user against total token throughput, the Pareto front marked. */
    static final String PARETO = "sweep-pareto.png";

    private static final ObjectMapper JSON = new ObjectMapper();

    private SweepSummaryFiles() {}

    /**
     * Writes the summary of {@code points} (each {@code numRuns} times) from {@code file}'s entries, and
     * the charts when {@code chart} (they take a moment, which points should not wait for); returns the
     * markdown.
     */
    static String write(Path dir, SweepFile file, List<SweepPoint> points, int numRuns, boolean chart)
            throws IOException {
        Map<String, Entry> entries = new HashMap<>();
        file.points().forEach(e -> entries.put(e.name() + "#" + e.run(), e));
        List<SweepSummary.Row> rows = new ArrayList<>();
        for (SweepPoint point : points) {
            List<BenchResult> runs = new ArrayList<>();
            for (int run = 1; run <= numRuns; run++) {
                Entry e = entries.get(point.name() + "#" + run);
                Path result = e == null ? null : dir.resolve(e.result());
                if (SweepFile.finished(e) && Files.isRegularFile(result)) {
                    runs.add(ResultReader.read(JSON.readTree(result.toFile())));
                }
            }
            rows.add(new SweepSummary.Row(point.params(), runs));
        }
        SweepSummary summary = new SweepSummary(file.swept(), rows, numRuns);
        String markdown = summary.markdown() + searchSection(file);
        Files.writeString(dir.resolve("summary.md"), markdown);
        Files.writeString(dir.resolve("summary.csv"), summary.csv());
        List<ParetoChart.Point> paretoPoints = summary.paretoPoints();
        if (chart && !paretoPoints.isEmpty()) {
            Files.write(
                    dir.resolve(PARETO),
                    ParetoChart.png("sweep " + dir.getFileName(), paretoPoints, ParetoChart.DEFAULT_SIZE));
        }
        List<SweepChart.Point> chartPoints = summary.chartPoints();
        if (chart && !chartPoints.isEmpty()) {
            String x = file.swept().get(0);
            Files.write(
                    dir.resolve(CHART),
                    SweepChart.png(
                            "sweep " + dir.getFileName() + " against " + x, x, chartPoints, SweepChart.DEFAULT_SIZE));
        }
        return markdown;
    }

    /** Below a search's table: each point's verdict in the order probed, then what the search found. */
    private static String searchSection(SweepFile file) {
        if (file.points().stream().allMatch(e -> e.sloMet() == null)) {
            return "";
        }
        StringBuilder md = new StringBuilder("\n## Search\n\n");
        for (Entry e : file.points()) {
            e.verdict()
                    .ifPresent(verdict -> md.append("- ")
                            .append(e.name())
                            .append(": ")
                            .append(verdict)
                            .append('\n'));
        }
        if (file.search() != null) {
            md.append('\n').append(file.search().summary()).append('\n');
        }
        return md.toString();
    }
}
