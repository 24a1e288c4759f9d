package io.tokenpulse.producer.dataset;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The row layouts of the Hugging Face datasets vLLM's {@code hf} client reads without network, by
 * its {@code HuggingFaceDataset} subclasses: which columns make the prompt, whether the chat
 * template is applied, and the output length.
 *
 * <p>A known dataset id picks its layout and default split and subset as vLLM does; any other
 * source is recognised by its first row's columns, in the order of this enum.
 */
enum HfLayout {
    /** ConversationDataset (ShareGPT_Vicuna): first turn the prompt, second's length the output. */
    CONVERSATION("conversations", List.of("conversations"), null, false, 1024, 2048),
    /** AIMODataset: {@code problem} the prompt, {@code solution}'s length the output. */
    AIMO("AIMO", List.of("problem", "solution"), null, false, 2048, 32000),
    /** MTBenchDataset: the first of {@code turns}. */
    MT_BENCH("MT-Bench", List.of("turns"), 256, true, 0, 0),
    /** InstructCoderDataset: {@code input}, then {@code instruction} and "Just output the code...". */
    INSTRUCT_CODER("InstructCoder", List.of("instruction", "input"), 200, true, 0, 0),
    /** GSM8KDataset: {@code question}. */
    GSM8K("GSM8K", List.of("question"), 256, true, 0, 0),
    /** HumanEvalDataset, and any dataset with a {@code prompt} column. */
    PROMPT("prompt", List.of("prompt"), 256, true, 0, 0);

    /** A dataset id vLLM knows, with the subset and split it defaults to. */
    record Known(HfLayout layout, String subset, String split) {}

    static final Map<String, Known> KNOWN = Map.of(
            "Aeala/ShareGPT_Vicuna_unfiltered", new Known(CONVERSATION, null, "train"),
            "AI-MO/aimo-validation-aime", new Known(AIMO, null, "train"),
            "AI-MO/NuminaMath-1.5", new Known(AIMO, null, "train"),
            "AI-MO/NuminaMath-CoT", new Known(AIMO, null, "train"),
            "philschmid/mt-bench", new Known(MT_BENCH, null, "train"),
            "likaixin/InstructCoder", new Known(INSTRUCT_CODER, null, "train"),
            "openai/gsm8k", new Known(GSM8K, "main", "test"),
            "openai/openai_humaneval", new Known(PROMPT, null, "test"));

    /** The split read when neither {@code --hf-split} nor a known id names one. */
    static final String DEFAULT_SPLIT = "train";

    /** One row's prompt and, for layouts whose output length comes from the data, its completion. */
    record Pair(String prompt, String completion) {}

    final String label;
    final List<String> columns;
    /** Output tokens when {@code --hf-output-len} is not given; null: the completion's length. */
    final Integer defaultOutputLen;

    final boolean chatTemplate;
    final int maxPromptLen;
    final int maxTotalLen;

    HfLayout(
            String label,
            List<String> columns,
            Integer defaultOutputLen,
            boolean chatTemplate,
            int maxPromptLen,
            int maxTotalLen) {
        this.label = label;
        this.columns = columns;
        this.defaultOutputLen = defaultOutputLen;
        this.chatTemplate = chatTemplate;
        this.maxPromptLen = maxPromptLen;
        this.maxTotalLen = maxTotalLen;
    }

    /** The first layout whose columns the row has. */
    static Optional<HfLayout> of(JsonNode row) {
        return Arrays.stream(values())
                .filter(layout -> layout.columns.stream().allMatch(row::has))
                .findFirst();
    }

    /** What any layout needs, for the message when a row has none of them. */
    static String expected() {
        return Arrays.stream(values())
                .map(layout -> layout.columns.stream().map(c -> "\"" + c + "\"").collect(Collectors.joining(" + ")))
                .collect(Collectors.joining(", "));
    }

    /**
     * The row's prompt (and completion), or empty when vLLM skips the row (a conversation of fewer
     * than two turns).
     *
     * @throws IllegalArgumentException with {@code where} and what was expected, for a row in another layout
     */
    Optional<Pair> pair(JsonNode row, String where) {
        return switch (this) {
            case CONVERSATION -> conversation(row, where);
            case AIMO -> Optional.of(new Pair(text(row, "problem", where), text(row, "solution", where)));
            case MT_BENCH -> {
                JsonNode turns = row.get("turns");
                if (!turns.isArray() || turns.isEmpty() || !turns.get(0).isTextual()) {
                    throw problem(where, "\"turns\" is " + kind(turns) + "; expected a list of strings");
                }
                yield Optional.of(new Pair(turns.get(0).asText(), null));
            }
            case INSTRUCT_CODER ->
                Optional.of(new Pair(
                        text(row, "input", where) + "\n\n" + text(row, "instruction", where)
                                + " Just output the code, do not include any explanation.",
                        null));
            case GSM8K -> Optional.of(new Pair(text(row, "question", where), null));
            case PROMPT -> Optional.of(new Pair(text(row, "prompt", where), null));
        };
    }

    private Optional<Pair> conversation(JsonNode row, String where) {
        JsonNode turns = row.get("conversations");
        if (!turns.isArray()) {
            throw problem(where, "\"conversations\" is " + kind(turns) + "; expected a list of turns");
        }
        if (turns.size() < 2) {
            return Optional.empty();
        }
        String[] values = new String[2];
        for (int turn = 0; turn < 2; turn++) {
            JsonNode value = turns.get(turn).get("value");
            if (value == null || !value.isTextual()) {
                throw problem(
                        where,
                        "conversations[" + turn + "] needs a string \"value\"; expected"
                                + " [{\"from\": \"human\", \"value\": \"...\"}, ...]");
            }
            values[turn] = value.asText();
        }
        return Optional.of(new Pair(values[0], values[1]));
    }

    private String text(JsonNode row, String column, String where) {
        JsonNode value = row.get(column);
        if (value == null || !value.isTextual()) {
            throw problem(where, "\"" + column + "\" is " + kind(value) + "; expected a string (" + label + " layout)");
        }
        return value.asText();
    }

    private static IllegalArgumentException problem(String where, String what) {
        return new IllegalArgumentException(where + ": " + what);
    }

    private static String kind(JsonNode node) {
        return node == null || node.isMissingNode()
                ? "missing"
                : node.isContainerNode() ? (node.isArray() ? "a list" : "an object") : node.toString();
    }
}
