package io.tokenpulse.producer.dataset;

import com.fasterxml.jackson.databind.JsonNode;
import io.tokenpulse.tokenizers.Tokenizer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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
    /**
     * ConversationDataset (ShareGPT_Vicuna) and MultiModalConversationDataset (LLaVA): first turn the
     * prompt, second's length the output, a row's {@code image} sent with the prompt.
     */
    CONVERSATION("conversations", List.of("conversations"), null, false, 1024, 2048),
    /** VisionArenaDataset (VisionArena-Chat): the first message of {@code conversation}, {@code images[0]}. */
    VISION_ARENA("VisionArena", List.of("conversation", "images"), 128, false, 0, 0),
    /** VisionArenaDataset (vision-arena-bench): the first message of {@code turns}, {@code images[0]}. */
    VISION_ARENA_BENCH("VisionArena bench", List.of("turns", "images"), 128, false, 0, 0),
    /** AIMODataset: {@code problem} the prompt, {@code solution}'s length the output. */
    AIMO("AIMO", List.of("problem", "solution"), null, false, 2048, 32000),
    /** MTBenchDataset: the first of {@code turns}. */
    MT_BENCH("MT-Bench", List.of("turns"), 256, true, 0, 0),
    /**
     * NextEditPredictionDataset (zeta): the zeta prompt of {@code events} and {@code input}, the
     * output's length from its editable region on; no length filter.
     */
    NEXT_EDIT("NextEditPrediction", List.of("events", "input", "output"), null, false, 0, 0),
    /**
     * MMStarDataset (Lin-Chen/MMStar): {@code question} up to its "Options:" with the row's {@code
     * image}, 128 tokens out.
     */
    MMSTAR("MMStar", List.of("question", "image"), 128, false, 0, 0),
    /**
     * MLPerfDataset: {@code system_prompt} and {@code question} as a system and a user message through
     * the chat template, {@code output}'s length (without special tokens) the output; vLLM's length
     * filter even with {@code --hf-output-len}.
     */
    MLPERF(
            "MLPerf",
            List.of("system_prompt", "question", "output"),
            null,
            true,
            SequenceFilter.MAX_PROMPT_LEN,
            SequenceFilter.MAX_TOTAL_LEN),
    /**
     * BlazeditDataset (code edits): {@code code} and {@code change_request} in Blazedit's prompt; a row
     * whose {@code norm_distance} is outside {@code --blazedit-min/max-distance} is skipped.
     */
    BLAZEDIT("Blazedit", List.of("code", "change_request", "norm_distance"), 4000, true, 0, 0),
    /** InstructCoderDataset: {@code input}, then {@code instruction} and "Just output the code...". */
    INSTRUCT_CODER("InstructCoder", List.of("instruction", "input"), 200, true, 0, 0),
    /** GSM8KDataset: {@code question}. */
    GSM8K("GSM8K", List.of("question"), 256, true, 0, 0),
    /** HumanEvalDataset, and any dataset with a {@code prompt} column. */
    PROMPT("prompt", List.of("prompt"), 256, true, 0, 0),
    /** ASRDataset: the row's {@code audio} clip, sent by {@code openai-audio}; the prompt text is not sent. */
    ASR("ASR", List.of("audio"), 1024, false, 0, 0);

    /** A dataset id vLLM knows, with the subset and split it defaults to. */
    record Known(HfLayout layout, String subset, String split) {}

    static final Map<String, Known> KNOWN = Map.ofEntries(
            Map.entry("Aeala/ShareGPT_Vicuna_unfiltered", new Known(CONVERSATION, null, "train")),
            Map.entry("lmms-lab/LLaVA-OneVision-Data", new Known(CONVERSATION, null, "train")),
            Map.entry("lmarena-ai/VisionArena-Chat", new Known(VISION_ARENA, null, "train")),
            Map.entry("lmarena-ai/vision-arena-bench-v0.1", new Known(VISION_ARENA_BENCH, null, "train")),
            Map.entry("AI-MO/aimo-validation-aime", new Known(AIMO, null, "train")),
            Map.entry("AI-MO/NuminaMath-1.5", new Known(AIMO, null, "train")),
            Map.entry("AI-MO/NuminaMath-CoT", new Known(AIMO, null, "train")),
            Map.entry("philschmid/mt-bench", new Known(MT_BENCH, null, "train")),
            Map.entry("zed-industries/zeta", new Known(NEXT_EDIT, null, "train")),
            Map.entry("likaixin/InstructCoder", new Known(INSTRUCT_CODER, null, "train")),
            Map.entry("Lin-Chen/MMStar", new Known(MMSTAR, null, "val")),
            Map.entry("mgoin/mlperf-inference-llama2-data", new Known(MLPERF, null, "train")),
            Map.entry("mgoin/mlperf-inference-llama3.1-data", new Known(MLPERF, null, "train")),
            Map.entry("vdaita/edit_5k_char", new Known(BLAZEDIT, null, "train")),
            Map.entry("vdaita/edit_10k_char", new Known(BLAZEDIT, null, "train")),
            Map.entry("openai/gsm8k", new Known(GSM8K, "main", "test")),
            Map.entry("openai/openai_humaneval", new Known(PROMPT, null, "test")),
            Map.entry("openslr/librispeech_asr", new Known(ASR, null, "train")),
            Map.entry("facebook/voxpopuli", new Known(ASR, null, "train")),
            Map.entry("LIUM/tedlium", new Known(ASR, null, "train")),
            Map.entry("edinburghcstr/ami", new Known(ASR, null, "train")),
            Map.entry("speechcolab/gigaspeech", new Known(ASR, null, "train")),
            Map.entry("kensho/spgispeech", new Known(ASR, null, "train")));

    /** The split read when neither {@code --hf-split} nor a known id names one. */
    static final String DEFAULT_SPLIT = "train";

    /**
     * The columns that hold a row's images or audio. {@link HfRows} reads each row with these as
     * booleans (whether the row has one), so that the rows' media stay on disk until a row is sampled;
     * {@link #media} then reads the sampled row's value.
     */
    static final Set<String> MEDIA_COLUMNS = Set.of("image", "images", "audio");

    /** What a row sends besides its text. */
    enum Media {
        NONE,
        IMAGE,
        AUDIO
    }

    /**
     * One row's prompt and, for layouts whose output length comes from the data, its completion.
     *
     * @param media whether the row has an image (sent by {@code openai-chat}) or a clip ({@code openai-audio})
     * @param system a system message sent before the prompt (MLPerf's), or null
     */
    record Pair(String prompt, String completion, Media media, String system) {

        Pair(String prompt, String completion, Media media) {
            this(prompt, completion, media, null);
        }

        Pair(String prompt, String completion) {
            this(prompt, completion, Media.NONE);
        }
    }

    /** Blazedit's own prompt, as vLLM sends it; {@code %s}: the row's code, then its change request. */
    private static final String BLAZEDIT_PROMPT = """
            Given a code file, please apply the change requests and generate the new file.

            Original file:
            ```python
            %s
            ```

            Change request:
            %s

            Please generate the new code file in the "New file" section below.""";

    /** vLLM's zeta prompt; {@code %s}: the row's events, then its input. */
    private static final String ZETA_PROMPT = """
            ### Instruction:
            You are a code completion assistant and your task is to analyze user edits and then rewrite an \
            excerpt that the user provides, suggesting the appropriate edits within the excerpt, taking into \
            account the cursor location.

            ### User Edits:

            %s

            ### User Excerpt:

            %s

            ### Response:

            """;

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

    /**
     * The tokens a completion asks for: {@code len(tokenizer(completion).input_ids)}, special tokens
     * included, as vLLM counts them; MLPerf's without ({@code add_special_tokens=False}).
     */
    int completionLen(Tokenizer tokenizer, String completion) {
        return this == MLPERF ? tokenizer.countTokens(completion) : InputIds.count(tokenizer, completion);
    }

    /** Whether vLLM filters this layout's rows by length even when {@code --hf-output-len} gives the output. */
    boolean filtersGivenOutput() {
        return this == MLPERF;
    }

    /** Why this layout skips a row, for the summary line ("3 rows, 1 with fewer than 2 turns dropped"). */
    String skipped() {
        return this == BLAZEDIT ? "outside --blazedit-min/max-distance" : "with fewer than 2 turns";
    }

    /** What any layout needs, for the message when a row has none of them. */
    static String expected() {
        return Arrays.stream(values())
                .map(layout -> layout.columns.stream().map(c -> "\"" + c + "\"").collect(Collectors.joining(" + ")))
                .collect(Collectors.joining(", "));
    }

    /**
     * The row's prompt (and completion), or empty when vLLM skips the row (a conversation of fewer
     * than two turns, a Blazedit edit outside {@code flags}' distances). The row's media columns hold
     * whether it has one ({@link #MEDIA_COLUMNS}).
     *
     * @throws IllegalArgumentException with {@code where} and what was expected, for a row in another layout
     */
    Optional<Pair> pair(JsonNode row, String where, DatasetOptions.Hf flags) {
        return switch (this) {
            case MMSTAR -> {
                if (!row.path("image").asBoolean(false)) {
                    throw problem(where, "\"image\" is missing; expected one image per row (" + label + " layout)");
                }
                String question = text(row, "question", where);
                int options = question.indexOf("Options:");
                yield Optional.of(new Pair(
                        (options >= 0 ? question.substring(0, options) : question).strip(), null, Media.IMAGE));
            }
            case MLPERF ->
                Optional.of(new Pair(
                        text(row, "question", where),
                        text(row, "output", where),
                        Media.NONE,
                        text(row, "system_prompt", where)));
            case BLAZEDIT -> {
                JsonNode distance = row.get("norm_distance");
                if (!distance.isNumber()) {
                    throw problem(
                            where,
                            "\"norm_distance\" is " + kind(distance) + "; expected a number (" + label + " layout)");
                }
                yield flags.keepsEdit(distance.asDouble())
                        ? Optional.of(new Pair(
                                BLAZEDIT_PROMPT.formatted(text(row, "code", where), text(row, "change_request", where)),
                                null))
                        : Optional.empty();
            }
            case CONVERSATION -> conversation(row, where);
            case VISION_ARENA -> Optional.of(visionArena(row, "conversation", where));
            case VISION_ARENA_BENCH -> Optional.of(visionArena(row, "turns", where));
            case NEXT_EDIT -> {
                String output = text(row, "output", where);
                int start = output.indexOf("<|editable_region_start|>");
                // Python's output[find(...):], whose -1 keeps the last character
                String expected =
                        start >= 0 ? output.substring(start) : output.substring(Math.max(0, output.length() - 1));
                yield Optional.of(new Pair(
                        ZETA_PROMPT.formatted(text(row, "events", where), text(row, "input", where)), expected));
            }
            case ASR -> {
                if (!row.path("audio").asBoolean(false)) {
                    throw problem(where, "\"audio\" is missing; expected one clip per row (ASR layout)");
                }
                yield Optional.of(new Pair("", null, Media.AUDIO));
            }
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
        return Optional.of(
                new Pair(values[0], values[1], row.path("image").asBoolean(false) ? Media.IMAGE : Media.NONE));
    }

    /** The first message's content of the first conversation in {@code column}; the first image is sent. */
    private Pair visionArena(JsonNode row, String column, String where) {
        JsonNode content = row.path(column).path(0).path(0).path("content");
        if (!content.isTextual()) {
            throw problem(
                    where,
                    "\"" + column + "\"[0][0].content is " + kind(content) + "; expected [[{\"role\": \"user\","
                            + " \"content\": \"...\"}, ...], ...] (" + label + " layout)");
        }
        return new Pair(content.asText(), null, Media.IMAGE);
    }

    /** The column {@link #media} reads (one of {@link #MEDIA_COLUMNS}), or null for text-only layouts. */
    String mediaColumn() {
        return switch (this) {
            case CONVERSATION, MMSTAR -> "image";
            case VISION_ARENA, VISION_ARENA_BENCH -> "images";
            case ASR -> "audio";
            default -> null;
        };
    }

    /**
     * What a sampled row sends, from the value of its {@link #mediaColumn} as stored: the image (see
     * {@link HfMedia#imageUrl}) or the clip (see {@link HfMedia#clip}).
     *
     * @throws IllegalArgumentException with {@code where} and what was expected
     */
    JsonNode media(JsonNode value, String where) {
        if (this == VISION_ARENA || this == VISION_ARENA_BENCH) {
            if (value == null || !value.isArray() || value.isEmpty()) {
                throw problem(
                        where, "\"images\" is " + kind(value) + "; expected a list of images (" + label + " layout)");
            }
            return value.get(0);
        }
        return value;
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
