package io.tokenpulse.producer.dataset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tokenpulse.tokenizers.ChatMessage;
import io.tokenpulse.tokenizers.Tokenizer;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * vLLM's {@code custom} dataset: a JSONL file ({@code --dataset-path}), one object per line with a
 * {@code prompt} string and, optionally, {@code output_tokens}, e.g.
 * {@code {"prompt": "What is the capital of India?", "output_tokens": 10}}. Blank lines are skipped.
 *
 * <p>Per run, the lines are shuffled with {@code --seed} (unless {@code --disable-shuffle}), the
 * first {@code --num-prompts} are sent, and fewer are topped up by {@link Oversampling}. Every
 * request asks for {@code --custom-output-len} tokens, or with {@code -1} for its line's
 * {@code output_tokens}. The prompt goes through the tokenizer's chat template as one user message
 * unless {@code --custom-skip-chat-template}, and its length is counted on what that gives
 * ({@link InputIds}). Completion backends get that text; {@code openai-chat} gets the prompt as
 * written, as one user message, since the server applies the template itself (vLLM would send the
 * templated text inside the message, templating it twice).
 */
final class CustomDataset extends SummarizingDataset {

    static final String NAME = "custom";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String LAYOUT = "one JSON object per line like {\"prompt\": \"...\", \"output_tokens\": 10}";

    /** One line of the file; {@code outputTokens} is null when the line has none. */
    private record Line(String prompt, Integer outputTokens) {}

    private final Path file;
    private final Tokenizer tokenizer;
    private final PromptStyle style;
    private final DatasetOptions.Custom flags;
    private final DatasetOptions.FileSampling fileSampling;
    private final List<Line> lines;

    private CustomDataset(Path file, Tokenizer tokenizer, DatasetOptions options, List<Line> lines) {
        super(NAME);
        this.file = file;
        this.tokenizer = tokenizer;
        this.style = options.promptStyle();
        this.flags = options.custom();
        this.fileSampling = options.fileSampling();
        this.lines = List.copyOf(lines);
    }

    /**
     * Reads the file now, so that a bad path or layout fails before the run starts.
     *
     * @throws IllegalArgumentException with one line naming the file, the line and what was
     *     expected: no path, unreadable file, a line that is not a JSON object with a string
     *     {@code prompt}, a missing or bad {@code output_tokens} with {@code --custom-output-len -1},
     *     no line at all, a tokenizer without a chat template when the template is applied
     */
    static CustomDataset load(DatasetOptions options, Tokenizer tokenizer) {
        options.custom().checked();
        Path file = DatasetFile.required(options.datasetPath(), NAME, "/path/to/prompts.jsonl");
        boolean fromFile = options.custom().outputLen() == DatasetOptions.Custom.FROM_FILE;
        List<Line> lines = new ArrayList<>();
        try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            int number = 0;
            for (String text = reader.readLine(); text != null; text = reader.readLine()) {
                number++;
                if (!text.isBlank()) {
                    lines.add(line(file, number, text, fromFile));
                }
            }
        } catch (IOException e) {
            throw DatasetFile.unreadable(file, e);
        }
        if (lines.isEmpty()) {
            throw layout(file, "it has no lines; expected " + LAYOUT);
        }
        if (!options.custom().skipChatTemplate() && !tokenizer.hasChatTemplate()) {
            throw new IllegalArgumentException("the custom dataset applies the chat template to every prompt and '"
                    + tokenizer.id() + "' has none: pass --tokenizer with a tokenizer_config.json that has"
                    + " chat_template, or --custom-skip-chat-template");
        }
        return new CustomDataset(file, tokenizer, options, lines);
    }

    private static Line line(Path file, int number, String text, boolean outputTokensNeeded) {
        JsonNode node =
                DatasetFile.jsonLine(JSON, text, number, problem -> layout(file, problem + "; expected " + LAYOUT));
        JsonNode prompt = node.get("prompt");
        if (!node.isObject() || prompt == null || !prompt.isTextual()) {
            throw layout(file, "line " + number + " has no string \"prompt\"; expected " + LAYOUT);
        }
        JsonNode outputTokens = node.get("output_tokens");
        if (outputTokens == null || outputTokens.isNull()) {
            if (outputTokensNeeded) {
                throw layout(
                        file,
                        "line " + number + " has no \"output_tokens\", which --custom-output-len -1 takes"
                                + " the output length from; add it to every line or give --custom-output-len N");
            }
            return new Line(prompt.asText(), null);
        }
        return new Line(prompt.asText(), outputTokensNeeded ? outputTokens(file, number, outputTokens) : null);
    }

    private static int outputTokens(Path file, int number, JsonNode value) {
        // vLLM takes int(output_tokens): whole numbers, also written as 10.0 or "10".
        String text = value.asText().strip();
        try {
            double parsed = value.isNumber() ? value.doubleValue() : Long.parseLong(text);
            if (parsed >= 1 && parsed <= Integer.MAX_VALUE && parsed == Math.rint(parsed)) {
                return (int) parsed;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw layout(file, "line " + number + ": \"output_tokens\" is " + value + "; expected a whole number >= 1");
    }

    private static IllegalArgumentException layout(Path file, String problem) {
        return new IllegalArgumentException(
                "--dataset-path " + file + " is not a custom dataset JSONL file: " + problem);
    }

    @Override
    Drawn choose(int numRequests, long seed) {
        List<Line> order = new ArrayList<>(lines);
        if (!fileSampling.disableShuffle()) {
            Collections.shuffle(order, new Random(seed));
        }
        List<SampledRequest> taken = new ArrayList<>(Math.min(numRequests, order.size()));
        for (Line line : order.subList(0, Math.min(numRequests, order.size()))) {
            String sent = flags.skipChatTemplate()
                    ? line.prompt()
                    : tokenizer.applyChatTemplate(List.of(ChatMessage.user(line.prompt())), true);
            int outputLen =
                    flags.outputLen() == DatasetOptions.Custom.FROM_FILE ? line.outputTokens() : flags.outputLen();
            Prompt prompt = style == PromptStyle.CHAT ? Prompt.of(line.prompt(), style) : new Prompt.Text(sent);
            taken.add(new SampledRequest(prompt, InputIds.count(tokenizer, sent), outputLen, taken.size()));
        }
        List<SampledRequest> requests = Oversampling.fill(taken, numRequests, seed, fileSampling.noOversample());
        String summary = NAME + ": " + file + ": " + lines.size() + " prompts, none dropped; sampled " + taken.size()
                + Oversampling.note(taken.size(), numRequests, fileSampling.noOversample());
        return new Drawn(requests, summary);
    }
}
