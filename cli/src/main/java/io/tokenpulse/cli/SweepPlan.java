package io.tokenpulse.cli;

import io.tokenpulse.runner.sweep.ServeSetting;
import io.tokenpulse.runner.sweep.SweepPoint;
import io.tokenpulse.runner.sweep.SweepRows;
import io.tokenpulse.runner.sweep.SweepValues;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The points of a sweep: the bench flags as given, where a flag whose value is a list or range
 * ({@link SweepValues}) varies, times the rows of {@code --bench-params}, times the server settings of
 * {@code --serve-params}. The last varying flag changes fastest (as Python's {@code itertools.product}).
 * Every mistake is an {@link IllegalArgumentException} with one line saying what to change, found
 * before anything starts.
 */
record SweepPlan(List<String> swept, List<ServeSetting> settings) {

    /** Flags that set up the one server and pipeline every point shares: a list on them is refused. */
    static final Set<String> FIXED = Set.of(
            "--backend",
            "--base-url",
            "--host",
            "--port",
            "--endpoint",
            "--simulate",
            "--bootstrap-servers",
            "--schema-registry-url",
            "--schema-registry-basic-auth",
            "--schema-registry-bearer-token",
            "--auto-register-schemas",
            "--topic-prefix",
            "--data-dir",
            "--replication-factor",
            "--partitions",
            "--metrics-port",
            "--metrics-host",
            "--otlp-endpoint",
            "--window-size-ms",
            "--window-grace-ms",
            "--spool-dir",
            "--spool-max-mb",
            "--save-result",
            "--save-detailed",
            "--shard-index",
            "--shard-count",
            "--profile",
            "--disable-tqdm",
            "--ready-check-timeout-sec");

    /** Flags the sweep sets itself for every point. */
    static final Set<String> OWNED = Set.of("--result-dir", "--result-filename", "--append-result", "--run-id");

    /** Single-valued flags whose own syntax has commas: their value is passed as it is. */
    static final Set<String> VERBATIM = Set.of("--percentile-metrics", "--metric-percentiles", "--extra-body");

    static SweepPlan of(
            CommandSpec bench, List<String> benchArgs, List<SweepRows.Row> benchRows, List<SweepRows.Row> serveRows) {
        List<Given> given = split(bench, benchArgs);
        List<Given> varying = new ArrayList<>();
        for (Given g : given) {
            if (g.values().size() > 1) {
                varying.add(g);
            }
        }
        for (SweepRows.Row row : benchRows) {
            for (String arg : row.args()) {
                if (arg.startsWith("--")) {
                    String flag = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
                    OptionSpec option = bench.findOption(flag);
                    if (option == null) {
                        throw new IllegalArgumentException("--bench-params row '" + row.name() + "' names " + flag
                                + ", which is not a bench flag (see 'tokenpulse bench --help')");
                    }
                    checkVariable(option.longestName(), "--bench-params varies it");
                }
            }
        }
        List<Map<String, String>> combos = product(varying);
        List<SweepRows.Row> rows =
                benchRows.isEmpty() ? List.of(new SweepRows.Row("", Map.of(), List.of())) : benchRows;
        List<SweepRows.Row> servers =
                serveRows.isEmpty() ? List.of(new SweepRows.Row("", Map.of(), List.of())) : serveRows;
        if (combos.isEmpty()) {
            throw new IllegalArgumentException("the sweep has no points; give each swept flag at least one value");
        }
        Set<String> swept = new LinkedHashSet<>();
        List<ServeSetting> settings = new ArrayList<>();
        for (SweepRows.Row server : servers) {
            List<SweepPoint> points = new ArrayList<>();
            for (SweepRows.Row row : rows) {
                for (Map<String, String> combo : combos) {
                    Map<String, String> params = new LinkedHashMap<>(server.params());
                    params.putAll(row.params());
                    params.putAll(combo);
                    swept.addAll(params.keySet());
                    List<String> args = new ArrayList<>();
                    for (Given g : given) {
                        String value = combo.get(g.param());
                        args.add(g.flag());
                        args.addAll(value == null ? g.tokens() : List.of(value));
                    }
                    args.addAll(row.args()); // last wins: a row's flag overrides the same flag given once
                    points.add(new SweepPoint(name(server, row, combo), params, List.copyOf(args)));
                }
            }
            settings.add(new ServeSetting(server.name(), server.params(), server.args(), points));
        }
        return new SweepPlan(List.copyOf(swept), settings);
    }

    /** Every point of every setting, in run order. */
    List<SweepPoint> points() {
        return settings.stream().flatMap(s -> s.points().stream()).toList();
    }

    /** A flag as given: its canonical name, its tokens, and its values when it varies. */
    private record Given(String flag, String param, List<String> tokens, List<String> values) {}

    private static List<Given> split(CommandSpec bench, List<String> args) {
        List<Given> given = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String token = args.get(i);
            if (!token.startsWith("-")) {
                throw new IllegalArgumentException(
                        "unexpected argument '" + token + "': give bench flags, e.g. --num-prompts 1,2,4");
            }
            String name = token.contains("=") ? token.substring(0, token.indexOf('=')) : token;
            OptionSpec option = bench.findOption(name);
            if (option == null) {
                throw new IllegalArgumentException("unknown flag " + name
                        + ": sweep takes its own flags and bench's (see 'tokenpulse bench --help')");
            }
            String flag = option.longestName();
            if (OWNED.contains(flag)) {
                throw new IllegalArgumentException(flag
                        + " is set by sweep: each point gets its own run id and result file under --output-dir/points");
            }
            List<String> tokens = new ArrayList<>();
            if (token.contains("=")) {
                tokens.add(token.substring(token.indexOf('=') + 1));
            } else {
                int max = option.arity().max();
                while (tokens.size() < max
                        && i + 1 < args.size()
                        && !args.get(i + 1).startsWith("--")) {
                    tokens.add(args.get(++i));
                }
            }
            List<String> values = List.of();
            boolean single = !option.isMultiValue()
                    && tokens.size() == 1
                    && option.arity().max() == 1;
            if (single && !VERBATIM.contains(flag) && SweepValues.isList(tokens.get(0))) {
                checkVariable(flag, "it is given a list");
                values = SweepValues.parse(flag, tokens.get(0));
            } else if (!single && tokens.stream().anyMatch(t -> t.contains(",")) && FIXED.contains(flag)) {
                checkVariable(flag, "it is given a list");
            }
            given.add(new Given(flag, SweepRows.param(flag), List.copyOf(tokens), values));
        }
        return given;
    }

    private static void checkVariable(String flag, String why) {
        if (FIXED.contains(flag)) {
            throw new IllegalArgumentException(flag + " cannot vary within a sweep (" + why
                    + "): all points share one server and one pipeline; run one sweep per value");
        }
        if (OWNED.contains(flag)) {
            throw new IllegalArgumentException(flag + " is set by sweep for each point");
        }
    }

    private static List<Map<String, String>> product(List<Given> varying) {
        List<Map<String, String>> combos = new ArrayList<>();
        combos.add(new LinkedHashMap<>());
        for (Given g : varying) {
            List<Map<String, String>> next = new ArrayList<>();
            for (Map<String, String> combo : combos) {
                for (String value : g.values()) {
                    Map<String, String> extended = new LinkedHashMap<>(combo);
                    extended.put(g.param(), value);
                    next.add(extended);
                }
            }
            combos = next;
        }
        return combos;
    }

    private static String name(SweepRows.Row server, SweepRows.Row row, Map<String, String> combo) {
        List<String> parts = new ArrayList<>();
        for (SweepRows.Row r : List.of(server, row)) {
            if (!r.name().isEmpty()) {
                parts.add(r.name());
            }
        }
        combo.forEach((k, v) -> parts.add(k + "=" + v));
        return parts.isEmpty() ? "default" : String.join(",", parts);
    }
}
