package io.tokenpulse.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The Grafana dashboards of {@code grafana/dashboards/} as the tests need them: every panel query
 * and every template variable, and the metric names a PromQL expression selects.
 */
final class DashboardFiles {

    /** One panel target. {@code instant}: Grafana evaluates it once at the end of the range. */
    record Query(String dashboard, String panel, String refId, String expr, boolean instant) {
        String where() {
            return dashboard + " / '" + panel + "' " + refId;
        }
    }

    /** A template variable; {@code query} is the PromQL of a query variable, else empty. */
    record Variable(String name, String type, String query, boolean multi, boolean includeAll) {}

    /** One dashboard file, parsed. */
    record Dashboard(Path file, JsonNode json) {
        String uid() {
            return json.path("uid").asText();
        }

        /** Panels in order, the panels of rows included. */
        List<JsonNode> panels() {
            List<JsonNode> all = new ArrayList<>();
            for (JsonNode panel : json.path("panels")) {
                all.add(panel);
                panel.path("panels").forEach(all::add);
            }
            return all;
        }

        List<Query> queries() {
            List<Query> queries = new ArrayList<>();
            for (JsonNode panel : panels()) {
                for (JsonNode target : panel.path("targets")) {
                    queries.add(new Query(
                            uid(),
                            panel.path("title").asText(),
                            target.path("refId").asText(),
                            target.path("expr").asText(),
                            target.path("instant").asBoolean(false)));
                }
            }
            return queries;
        }

        List<Variable> variables() {
            List<Variable> variables = new ArrayList<>();
            for (JsonNode v : json.path("templating").path("list")) {
                JsonNode query = v.path("query");
                String promql = query.isObject() ? query.path("query").asText() : query.asText();
                variables.add(new Variable(
                        v.path("name").asText(),
                        v.path("type").asText(),
                        v.path("type").asText().equals("query") ? promql : "",
                        v.path("multi").asBoolean(false),
                        v.path("includeAll").asBoolean(false)));
            }
            return variables;
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"");
    private static final Pattern MATCHERS = Pattern.compile("\\{[^}]*}");
    private static final Pattern RANGE = Pattern.compile("\\[[^]]*]");
    private static final Pattern GROUPING =
            Pattern.compile("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
    private static final Pattern NAME = Pattern.compile("(?<![\\w:$.])([a-zA-Z_:][a-zA-Z0-9_:]*)\\b(?!\\s*\\()");
    private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "bool", "offset", "inf", "nan");

    private DashboardFiles() {}

    /** The repository's dashboards folder, from the deploy module's directory the build runs tests in. */
    static Path folder() {
        return Path.of(System.getProperty("basedir", "."))
                .toAbsolutePath()
                .resolve("../grafana/dashboards")
                .normalize();
    }

    static List<Dashboard> load() {
        try (Stream<Path> files = Files.list(folder())) {
            List<Dashboard> dashboards = new ArrayList<>();
            for (Path file :
                    files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                dashboards.add(new Dashboard(file, JSON.readTree(file.toFile())));
            }
            return dashboards;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the dashboards in " + folder(), e);
        }
    }

    /**
     * The metric names an expression selects. Written for the PromQL the dashboards use (and
     * {@code label_values(selector, label)}): strings, label matchers, ranges and grouping lists are
     * dropped first, then every identifier that is not a function call or a keyword is a metric name.
     * Hand-written because no Java PromQL parser is published on Maven Central.
     */
    static Set<String> metricNames(String expr) {
        String bare = STRING.matcher(expr).replaceAll("\"\"");
        bare = MATCHERS.matcher(bare).replaceAll("{}");
        bare = RANGE.matcher(bare).replaceAll("");
        bare = GROUPING.matcher(bare).replaceAll("");
        bare = bare.replaceFirst("^label_values\\((.*),\\s*\\w+\\)$", "$1");
        Set<String> names = new TreeSet<>();
        Matcher name = NAME.matcher(bare);
        while (name.find()) {
            if (!KEYWORDS.contains(name.group(1).toLowerCase())) {
                names.add(name.group(1));
            }
        }
        return names;
    }
}
