package io.tokenpulse.aggregator.definitions;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.stream.Collectors;

/**
 * How {@code rescore} writes a {@link Comparison}: a Markdown table with the differences below it,
 * a CSV table (one row per metric, the difference's rule in the last column) or JSON.
 */
public enum ComparisonFormat {
    MARKDOWN {
        @Override
        public String render(Comparison c) {
            StringBuilder out = new StringBuilder();
            out.append("# Run ").append(c.runId()).append(" scored by each tool's definitions\n\n");
            c.incomplete()
                    .ifPresent(missing -> out.append("> **Incomplete run** (--allow-incomplete): missing ")
                            .append(missing)
                            .append(".\n\n"));
            out.append("| metric |");
            c.scores().forEach(s -> out.append(' ').append(s.tool()).append(" |"));
            out.append("\n|---|");
            c.scores().forEach(s -> out.append("---:|"));
            out.append('\n');
            for (ScoreRow row : ScoreRow.values()) {
                out.append("| ").append(row.label()).append(" |");
                c.scores()
                        .forEach(s -> out.append(' ')
                                .append(cell(row, s.get(row), "—"))
                                .append(" |"));
                out.append('\n');
            }
            out.append("\n## Where the tools differ by more than 1 %\n\n");
            if (c.differences().isEmpty()) {
                out.append("Nowhere: every row agrees within 1 %.\n");
            }
            for (Comparison.Difference d : c.differences()) {
                out.append("- **")
                        .append(d.row().label())
                        .append("**: ")
                        .append(sentence(d))
                        .append('\n');
            }
            return out.toString();
        }
    },
    CSV {
        @Override
        public String render(Comparison c) {
            StringBuilder out = new StringBuilder();
            c.incomplete()
                    .ifPresent(missing -> out.append("# run ")
                            .append(c.runId())
                            .append(" is incomplete: missing ")
                            .append(missing)
                            .append('\n'));
            out.append("metric,key");
            c.scores().forEach(s -> out.append(',').append(s.tool()));
            out.append(",differs_by,why\n");
            Map<ScoreRow, Comparison.Difference> byRow =
                    c.differences().stream().collect(Collectors.toMap(Comparison.Difference::row, d -> d));
            for (ScoreRow row : ScoreRow.values()) {
                out.append(quote(row.label())).append(',').append(row.key());
                c.scores()
                        .forEach(s -> out.append(',')
                                .append(s.get(row).isPresent() ? raw(s.get(row).getAsDouble()) : ""));
                Comparison.Difference d = byRow.get(row);
                out.append(',')
                        .append(d == null ? "" : raw(d.relative()))
                        .append(',')
                        .append(d == null ? "" : quote(d.why()))
                        .append('\n');
            }
            return out.toString();
        }
    },
    JSON {
        @Override
        public String render(Comparison c) {
            List<String> tools = c.scores().stream().map(ToolScores::tool).toList();
            List<JsonRow> rows = Arrays.stream(ScoreRow.values())
                    .map(row -> {
                        Map<String, Double> values = new LinkedHashMap<>();
                        c.scores().forEach(s -> values.put(s.tool(), s.values().get(row)));
                        return new JsonRow(row.key(), row.label(), values);
                    })
                    .toList();
            List<JsonDifference> differences = c.differences().stream()
                    .map(d -> new JsonDifference(
                            d.row().key(),
                            d.lowTool(),
                            d.low(),
                            d.highTool(),
                            d.high(),
                            Double.isInfinite(d.relative()) ? null : d.relative(),
                            d.why()))
                    .toList();
            try {
                return MAPPER.writeValueAsString(
                                new JsonComparison(c.runId(), c.incomplete().orElse(null), tools, rows, differences))
                        + "\n";
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("a comparison did not serialize", e);
            }
        }
    };

    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** The JSON file: one record, its component names are the keys. */
    record JsonComparison(
            String run_id,
            String incomplete,
            List<String> tools,
            List<JsonRow> rows,
            List<JsonDifference> differences) {}

    /** A metric row: its value per tool, null where the tool does not report it. */
    record JsonRow(String key, String label, Map<String, Double> values) {}

    /** A row where the tools differ; relative is null when the low value is 0. */
    record JsonDifference(
            String key, String low_tool, double low, String high_tool, double high, Double relative, String why) {}

    /** The comparison in this format. */
    public abstract String render(Comparison comparison);

    /**
     * The format named (case-insensitive); {@code md} is Markdown, as in {@code compare --format}.
     *
     * @throws IllegalArgumentException for an unknown name; the message lists the known ones
     */
    public static ComparisonFormat parse(String name) {
        try {
            String upper = name.trim().toUpperCase(Locale.ROOT);
            return upper.equals("MD") ? MARKDOWN : valueOf(upper);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown --format '" + name + "'; known: "
                    + Arrays.stream(values())
                            .map(f -> f.name().toLowerCase(Locale.ROOT))
                            .collect(Collectors.joining(",")));
        }
    }

    /**
     * A difference in words, after its row's label: the highest and the lowest tool's values, the
     * relative difference, and the rule that causes it ({@code "guidellm 17.05 vs vllm 7.79 (+118.9 %). ..."}).
     */
    public static String sentence(Comparison.Difference d) {
        return d.highTool() + ' ' + cell(d.row(), OptionalDouble.of(d.high()), "") + " vs " + d.lowTool() + ' '
                + cell(d.row(), OptionalDouble.of(d.low()), "") + " (" + percent(d.relative()) + "). " + d.why();
    }

    /** A table cell: counts without decimals, everything else with two; {@code absent} where the tool has none. */
    public static String cell(ScoreRow row, OptionalDouble value, String absent) {
        if (value.isEmpty()) {
            return absent;
        }
        return row.family() == ScoreRow.Family.REQUESTS || row.family() == ScoreRow.Family.TOKENS
                ? String.format(Locale.ROOT, "%d", Math.round(value.getAsDouble()))
                : String.format(Locale.ROOT, "%.2f", value.getAsDouble());
    }

    private static String percent(double relative) {
        return Double.isInfinite(relative) ? "the other is 0" : String.format(Locale.ROOT, "+%.1f %%", relative * 100);
    }

    private static String raw(double value) {
        return Double.isInfinite(value) ? "inf" : Double.toString(value);
    }

    private static String quote(String text) {
        return "\"" + text.replace("\"", "\"\"") + "\"";
    }
}
