package io.tokenpulse.cli.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.tokenpulse.aggregator.definitions.Definition;
import io.tokenpulse.aggregator.definitions.Definitions;
import io.tokenpulse.aggregator.definitions.ScoreRow.Family;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The lines under {@code compare}'s table that say where the tools whose files are in it define a
 * column differently (GuideLLM's TPOT includes TTFT; vLLM pools every ITL gap where GuideLLM takes
 * one mean per request; GuideLLM's percentiles are nearest ranks), from the same rules {@code
 * rescore} states ({@link Definition#rule}, docs/rescore.md). A column whose tools agree gets no line.
 */
public final class DefinitionNotes {
    /** The tool a result file comes from: its definitions' name in {@link Definitions}, and how a reader knows it. */
    public enum Tool {
        VLLM("vllm", "vLLM/TokenPulse"),
        GUIDELLM("guidellm", "GuideLLM"),
        AIPERF("aiperf", "AIPerf"),
        INFERENCE_PERF("inference-perf", "inference-perf");

        final String definitions;
        final String shown;

        Tool(String definitions, String shown) {
            this.definitions = definitions;
            this.shown = shown;
        }

        /** The tool's definitions ({@code rescore --as} name). */
        public Definition definition() {
            return Definitions.parse(definitions).get(0);
        }

        /** The tool's name as the notes show it. */
        public String shown() {
            return shown;
        }

        /** The tool of one JSON object of a result file, as {@link ResultFiles#rows} tells them apart. */
        static Tool of(JsonNode object) {
            if (object.path("benchmarks").isArray()) {
                return GUIDELLM;
            }
            if (object.path("time_to_first_token").has("unit")
                    || object.path("request_throughput").has("unit")) {
                return AIPERF;
            }
            return InferencePerfReport.matches(object) ? INFERENCE_PERF : VLLM;
        }
    }

    private DefinitionNotes() {}

    /** The tools of a result file's rows. */
    public static Set<Tool> tools(Path file) {
        Set<Tool> tools = new LinkedHashSet<>();
        ResultFiles.read(file).forEach(row -> tools.add(row.tool()));
        return tools;
    }

    /** One line per column the tools define differently, each {@code "- COLUMN: tool: rule; tool: rule."}; none for one tool. */
    public static List<String> lines(Set<Tool> tools) {
        List<String> lines = new ArrayList<>();
        if (tools.size() < 2) {
            return lines;
        }
        line(lines, "TTFT", tools, tool -> rule(tool, Family.TTFT));
        line(
                lines,
                "TPOT",
                tools,
                tool -> tool == Tool.AIPERF
                        ? "its inter_token_latency, shown as TPOT: " + rule(tool, Family.ITL)
                        : rule(tool, Family.TPOT));
        line(
                lines,
                "ITL",
                tools,
                tool -> tool == Tool.AIPERF
                        ? "its inter_chunk_latency, shown as ITL, is every gap between chunks (blank when not exported)"
                        : rule(tool, Family.ITL));
        line(lines, "Throughput", tools, tool -> rule(tool, Family.OUTPUT_THROUGHPUT));
        line(lines, "Medians and P99s", tools, tool -> tool.definition().percentileRule());
        return lines;
    }

    /** The notes under a markdown table: a heading line and the lines, or nothing. */
    public static String markdown(Set<Tool> tools) {
        List<String> lines = lines(tools);
        return lines.isEmpty()
                ? ""
                : "\nWhere the tools' definitions differ (docs/rescore.md):\n" + String.join("\n", lines) + "\n";
    }

    private static void line(
            List<String> lines, String column, Set<Tool> tools, java.util.function.Function<Tool, String> rule) {
        Map<String, List<String>> byRule = new LinkedHashMap<>();
        for (Tool tool : tools) {
            byRule.computeIfAbsent(rule.apply(tool), r -> new ArrayList<>()).add(tool.shown);
        }
        if (byRule.size() < 2) {
            return;
        }
        List<String> parts = new ArrayList<>();
        byRule.forEach((text, names) -> parts.add(String.join(", ", names) + ": " + text));
        lines.add("- " + column + ": " + String.join("; ", parts) + ".");
    }

    private static String rule(Tool tool, Family family) {
        return tool.definition().rule(family);
    }
}
