package io.tokenpulse.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every query of every dashboard in {@code grafana/dashboards/} against a real Prometheus that
 * scraped a real {@code tokenpulse bench --simulate} run (the shaded jar, in a process of its own):
 * each must parse and return data, as Grafana would run it. The run has failures (the simulator resets a
 * seeded three in ten streams) and goodput, so the failure and goodput panels have something to show,
 * sessions of two turns, so the TTFT-by-turn panel has too, scrapes the simulator's {@code /metrics}, so
 * the server panels have too, and its chat responses start with a token of thinking, so the reasoning
 * (TTFO) panel has too.
 */
class DashboardQueriesIT {

    private static final String ONLY_NAN = "only NaN";

    /**
     * Panels of a server's prefix-cache hits: the deterministic profile this run needs for its timings
     * has no prefix cache, so their ratio is 0/0 here. Its series must still exist (NaN, not "no data");
     * RequestMetricsIT shows the hit rate against a simulator that reports {@code cached_tokens}.
     */
    private static final Set<String> CACHE_PANELS = Set.of("Prefix cache hit rate (client, from usage)");

    private static final String RUN_ID = "20990101-000000-dashit";
    /** The shipped command: cli's shaded jar (failsafe passes its path), run in a process of its own. */
    private static final Path JAR = Path.of(System.getProperty("tokenpulse.jar", "../cli/target/tokenpulse.jar"))
            .toAbsolutePath()
            .normalize();
    /** What Grafana makes of $__rate_interval with a 1 s scrape interval: max(4 x scrape, interval + scrape). */
    private static final String RATE_INTERVAL = "4s";

    private static final Duration STEP = Duration.ofSeconds(1);
    /** A Grafana variable reference; {@code $1} in label_replace is a capture group, not a variable. */
    private static final Pattern VARIABLE = Pattern.compile("\\$\\{?[A-Za-z_]\\w*|\\[\\[\\w+]]");

    private static final Pattern LABEL_VALUES = Pattern.compile("^label_values\\((?:(.*),\\s*)?(\\w+)\\)$");

    @TempDir
    Path dataDir;

    @TempDir
    Path prometheusDir;

    @TempDir
    Path home;

    @Test
    void everyPanelQueryOfEveryDashboardReturnsDataFromARealRun() throws Exception {
        int metricsPort = LocalPrometheus.freePort();
        try (LocalPrometheus prometheus = LocalPrometheus.start(prometheusDir, metricsPort)) {
            double startS = nowS() - 5;
            runBench(metricsPort);
            awaitFinalScrape(prometheus);
            double endS = nowS();

            List<String> problems = new ArrayList<>();
            int queries = 0;
            for (DashboardFiles.Dashboard dashboard : DashboardFiles.load()) {
                Map<String, String> values = resolveVariables(dashboard, prometheus, startS, endS, problems);
                values.put("__rate_interval", RATE_INTERVAL);
                values.put("__interval", STEP.toSeconds() + "s");
                values.put("__interval_ms", Long.toString(STEP.toMillis()));
                values.put("__range", Math.round(endS - startS) + "s");
                values.put("__range_s", Long.toString(Math.round(endS - startS)));
                values.put("__range_ms", Long.toString(Math.round((endS - startS) * 1000)));
                for (DashboardFiles.Query query : dashboard.queries()) {
                    queries++;
                    String expr = substitute(query.expr(), values);
                    String problem = check(prometheus, query, expr, startS, endS);
                    if (problem != null && !(problem.equals(ONLY_NAN) && CACHE_PANELS.contains(query.panel()))) {
                        problems.add(query.where() + ": " + problem + "\n    " + expr);
                    }
                }
            }

            assertThat(queries)
                    .as("panel queries found in " + DashboardFiles.folder())
                    .isGreaterThan(30);
            assertThat(problems).as("panel queries that fail or show nothing").isEmpty();
        }
    }

    /** Null when the query parses and returns at least one number; else what is wrong. */
    private static String check(
            LocalPrometheus prometheus, DashboardFiles.Query query, String expr, double startS, double endS)
            throws InterruptedException {
        Matcher leftOver = VARIABLE.matcher(expr);
        if (leftOver.find()) {
            return "variable " + leftOver.group() + " is not one the test knows";
        }
        JsonNode result;
        try {
            result = query.instant() ? prometheus.query(expr, endS) : prometheus.queryRange(expr, startS, endS, STEP);
        } catch (java.io.IOException e) {
            return "error: " + e.getMessage();
        }
        for (JsonNode series : result) {
            List<JsonNode> points = new ArrayList<>();
            series.path("values").forEach(points::add);
            if (series.has("value")) {
                points.add(series.get("value"));
            }
            for (JsonNode point : points) {
                double value = Double.parseDouble(point.get(1).asText());
                if (!Double.isNaN(value)) {
                    return null;
                }
            }
        }
        return result.isEmpty() ? "no data" : ONLY_NAN;
    }

    private void runBench(int metricsPort) throws IOException, InterruptedException {
        assertThat(JAR).as("the shaded jar (mvn package builds it)").exists();
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                // a home of its own: nothing of a default data dir or spool is shared with other runs
                "-Duser.home=" + home,
                "-jar",
                JAR.toString()));
        // Sessions of two turns, so the TTFT-by-turn panel has turns to show. A seeded three in ten
        // requests are reset after their 3rd event ("stream" failures; seed 0 spares the test request).
        // E2EL is about 50 ms + 20 ms per token after the first, so the 160 ms SLO splits the successes.
        // The first token of every chat response is thinking: a reasoning model's run.
        // 3 requests a second spread the run over ~7 s: the TTFO and by-turn timers are registered by their
        // first sample, and a 4 s rate() shows them only if a later scrape sees them grow (a run that lands
        // between two scrapes, as a lagging aggregator's burst can, shows NaN there).
        command.addAll(List.of(
                "bench",
                "--simulate",
                "--simulate-profile",
                "deterministic",
                "--simulate-reasoning-tokens",
                "1",
                "--backend",
                "openai-chat",
                "--endpoint",
                "/v1/chat/completions",
                "--dataset-name",
                "multi-turn",
                "--num-prompts",
                "20",
                "--multi-turn-num-turns",
                "2",
                "--request-rate",
                "3",
                "--multi-turn-input-len",
                "16",
                "--multi-turn-output-len",
                "6",
                "--simulate-fault",
                "reset=3:0.3",
                "--goodput",
                "ttft:500",
                "e2el:160",
                "--percentile-metrics",
                "ttft,tpot,itl,e2el",
                "--metric-percentiles",
                "90,99",
                "--disable-tqdm",
                "--server-metrics",
                "--server-metrics-interval-ms",
                "250",
                "--run-id",
                RUN_ID,
                "--data-dir",
                dataDir.toString(),
                "--metrics-port",
                Integer.toString(metricsPort)));
        Path output = home.resolve("bench.out");
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
        if (!process.waitFor(4, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError("bench did not finish in 4 minutes: " + Files.readString(output));
        }
        String out = Files.readString(output, StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as(out).isZero();
        assertThat(out)
                .contains("Failed requests:")
                .contains("Request goodput (req/s):")
                .contains("Mean TTFO (ms):")
                .contains("Per Turn");
    }

    /** Bench waits for one scrape after its summary; its summary gauges must be stored by now. */
    private static void awaitFinalScrape(LocalPrometheus prometheus) throws Exception {
        String summary = "last_over_time(tokenpulse_summary_requests{run_id=\"" + RUN_ID + "\"}[10m])";
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (prometheus.query(summary, nowS()).isEmpty()) {
            assertThat(System.nanoTime())
                    .as("summary gauges in Prometheus; log:\n" + prometheus.log())
                    .isLessThan(deadline);
            Thread.sleep(200);
        }
    }

    /**
     * The values Grafana would give the dashboard's variables for this run: each {@code label_values}
     * query runs against Prometheus (and must find values); {@code run_id} must offer the bench's run,
     * and a multi-value variable takes all its values, regex-escaped and joined as Grafana does.
     */
    private static Map<String, String> resolveVariables(
            DashboardFiles.Dashboard dashboard,
            LocalPrometheus prometheus,
            double startS,
            double endS,
            List<String> problems)
            throws Exception {
        Map<String, String> values = new LinkedHashMap<>();
        for (DashboardFiles.Variable variable : dashboard.variables()) {
            if (!variable.type().equals("query")) {
                continue;
            }
            String where = dashboard.uid() + " / variable $" + variable.name();
            Matcher labelValues = LABEL_VALUES.matcher(variable.query().trim());
            if (!labelValues.matches() || labelValues.group(1) == null) {
                problems.add(where + ": expected label_values(<selector>, <label>), got " + variable.query());
                continue;
            }
            String selector = substitute(labelValues.group(1), values);
            TreeSet<String> found = new TreeSet<>();
            for (JsonNode series : prometheus.series(selector, startS, endS)) {
                JsonNode value = series.get(labelValues.group(2));
                if (value != null) {
                    found.add(value.asText());
                }
            }
            if (variable.name().equals("run_id")) {
                if (!found.contains(RUN_ID)) {
                    problems.add(where + ": " + RUN_ID + " not among " + found + " from " + selector);
                }
                found = new TreeSet<>(List.of(RUN_ID));
            } else if (found.isEmpty()) {
                problems.add(where + ": no values from " + selector);
            }
            values.put(variable.name(), format(variable, found));
        }
        return values;
    }

    /** Grafana's Prometheus interpolation: multi-value variables become an escaped regex alternation. */
    private static String format(DashboardFiles.Variable variable, TreeSet<String> values) {
        if (!variable.multi() && !variable.includeAll()) {
            return values.first().replace("\\", "\\\\").replace("'", "\\\\'");
        }
        List<String> escaped = values.stream()
                .map(v -> v.replaceAll("[\\\\^$.|?*+()\\[\\]{}]", "\\\\\\\\$0"))
                .toList();
        return escaped.size() == 1 ? escaped.get(0) : escaped.stream().collect(Collectors.joining("|", "(", ")"));
    }

    /** Replaces {@code ${name}}, {@code [[name]]} and {@code $name}, longest names first. */
    static String substitute(String expr, Map<String, String> values) {
        String result = expr;
        List<String> names = values.keySet().stream()
                .sorted((a, b) -> b.length() - a.length())
                .toList();
        for (String name : names) {
            String value = Matcher.quoteReplacement(values.get(name));
            result = result.replace("${" + name + "}", values.get(name))
                    .replace("[[" + name + "]]", values.get(name))
                    .replaceAll("\\$" + Pattern.quote(name) + "(?![A-Za-z0-9_])", value);
        }
        return result;
    }

    private static double nowS() {
        return System.currentTimeMillis() / 1000.0;
    }
}
