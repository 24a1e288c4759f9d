package io.tokenpulse.runner.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The rows of {@code --bench-params} and {@code --serve-params} files, and the flag ↔ parameter names they use. */
public final class SweepRows {
    private static final ObjectMapper JSON = new ObjectMapper();

    private SweepRows() {}

    /** A row of a params file: its name (for a name → flags map) and its flags. */
    public record Row(String name, Map<String, String> params, List<String> args) {}

    /** {@code --num-prompts} → {@code num_prompts}. */
    public static String param(String flag) {
        return flag.replaceFirst("^-+", "").replace('-', '_');
    }

    /** {@code num_prompts}, {@code num-prompts} or {@code --num-prompts} → {@code --num-prompts}. */
    public static String flag(String key) {
        return key.startsWith("-") ? key : "--" + key.replace('_', '-');
    }

    /**
     * The rows of a params file, vLLM's shapes: a JSON list of flag maps (each row named by its flags,
     * {@code max_num_seqs=8,...}) or an object of name → flag map (the name is then the row's
     * {@code serve_setting} or {@code bench_setting} parameter, the table's label). A value
     * {@code true} is a bare flag, {@code false} leaves the flag out, anything else is the flag's value.
     */
    public static List<Row> read(String option, Path file) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException(option + " " + file + ": no such file");
        }
        JsonNode root;
        try {
            root = JSON.readTree(Files.readString(file));
        } catch (IOException e) {
            throw new IllegalArgumentException(option + " " + file + " cannot be read as JSON: "
                    + e.getMessage().lines().findFirst().orElse(""));
        }
        List<Row> rows = new ArrayList<>();
        if (root != null && root.isArray()) {
            for (JsonNode node : root) {
                rows.add(row(option, file, null, node));
            }
        } else if (root != null && root.isObject()) {
            root.fields().forEachRemaining(e -> rows.add(row(option, file, e.getKey(), e.getValue())));
        } else {
            throw new IllegalArgumentException(
                    option + " " + file + " must hold a JSON list of flag maps or an object of name -> flag map");
        }
        if (rows.isEmpty()) {
            throw new IllegalArgumentException(option + " " + file + " has no rows: the sweep would have no points");
        }
        return rows;
    }

    private static Row row(String option, Path file, String name, JsonNode node) {
        if (!node.isObject()) {
            throw new IllegalArgumentException(
                    option + " " + file + ": each row must be a map of flag -> value, got " + node);
        }
        Map<String, String> params = new LinkedHashMap<>();
        if (name != null) {
            // the row's name is its label in the summary table (the "Backend/Setting" column of published vLLM
            // comparison tables)
            params.put(option.equals("--serve-params") ? "serve_setting" : "bench_setting", name);
        }
        List<String> args = new ArrayList<>();
        node.fields().forEachRemaining(e -> {
            JsonNode value = e.getValue();
            if (value.isContainerNode()) {
                throw new IllegalArgumentException(option + " " + file + ": '" + e.getKey()
                        + "' must be one value per row (a string, number or boolean)");
            }
            String text = value.asText();
            params.put(param(e.getKey()), text);
            if (value.isBoolean()) {
                if (value.booleanValue()) {
                    args.add(flag(e.getKey()));
                }
            } else {
                args.add(flag(e.getKey()));
                args.add(text);
            }
        });
        String rowName = name != null
                ? name
                : String.join(
                        ",",
                        params.entrySet().stream()
                                .map(e -> e.getKey() + "=" + e.getValue())
                                .toList());
        return new Row(rowName, params, args);
    }
}
