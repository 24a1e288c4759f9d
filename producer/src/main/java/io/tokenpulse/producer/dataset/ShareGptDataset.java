package io.tokenpulse.producer.dataset;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tokenpulse.tokenizers.ChatMessage;
import io.tokenpulse.tokenizers.Tokenizer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * vLLM's {@code sharegpt} dataset: a ShareGPT JSON file ({@code --dataset-path}), an array of
 * {@code {"conversations": [{"from": ..., "value": ...}, ...]}} entries.
 *
 * <p>Entries with fewer than two turns are dropped when the file is read. Per run, the rest are
 * shuffled with {@code --seed} (unless {@code --disable-shuffle}) and taken in that order: the first
 * turn is the prompt, the second's length in tokens the output length (or
 * {@code --sharegpt-output-len}), both counted as vLLM does ({@link InputIds}); pairs that break a
 * {@link SequenceFilter} rule are skipped, until {@code --num-prompts} are found. Fewer found are
 * topped up by {@link Oversampling}. Only the entries looked at are tokenized.
 *
 * <p>An entry's {@code image} (ShareGPT4V: a path relative to the dataset file's folder, a
 * {@code file:} URL, or an {@code http(s):}/{@code data:} URL sent as is) goes to {@code openai-chat}
 * as OpenAI {@code image_url} content, a local file as a {@code data:} URL of its bytes; other
 * backends cannot send images, so such a file is refused for them when it is read. The prompt's
 * length counts its text only.
 */
final class ShareGptDataset extends SummarizingDataset {

    static final String NAME = "sharegpt";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String LAYOUT =
            "a JSON array of {\"conversations\": [{\"from\": \"human\", \"value\": \"...\"}, ...]} entries";

    /** The first two turns of one entry, and its image reference as written, or null. */
    private record Conversation(int entry, String prompt, String completion, String image) {}

    private final Path file;
    private final Tokenizer tokenizer;
    private final PromptStyle style;
    private final Integer outputLen;
    private final DatasetOptions.FileSampling fileSampling;
    private final List<Conversation> conversations;
    private final int entriesRead;

    private ShareGptDataset(
            Path file, Tokenizer tokenizer, DatasetOptions options, List<Conversation> conversations, int entriesRead) {
        super(NAME);
        this.file = file;
        this.tokenizer = tokenizer;
        this.style = options.promptStyle();
        this.outputLen = options.shareGpt().outputLen();
        this.fileSampling = options.fileSampling();
        this.conversations = List.copyOf(conversations);
        this.entriesRead = entriesRead;
    }

    /**
     * Reads the file now, so that a bad path or layout fails before the run starts.
     *
     * @throws IllegalArgumentException with one line naming the file, the entry and what was
     *     expected: no path, unreadable file, not JSON, not ShareGPT's layout, no entry with two
     *     turns, an image for a backend other than {@code openai-chat}, an image file that is missing,
     *     no conversation that passes the filters
     */
    static ShareGptDataset load(DatasetOptions options, Tokenizer tokenizer) {
        options.shareGpt().checked();
        Path file =
                DatasetFile.required(options.datasetPath(), NAME, "/path/to/ShareGPT_V3_unfiltered_cleaned_split.json");
        List<Conversation> conversations = new ArrayList<>();
        int entries = 0;
        try (InputStream in = Files.newInputStream(file);
                JsonParser parser = JSON.createParser(in)) {
            JsonToken first = parser.nextToken();
            if (first != JsonToken.START_ARRAY) {
                throw layout(
                        file, "expected " + LAYOUT + ", found " + (first == null ? "an empty file" : describe(first)));
            }
            for (JsonToken token = parser.nextToken(); token != JsonToken.END_ARRAY; token = parser.nextToken()) {
                long line = parser.currentLocation().getLineNr();
                JsonNode entry = JSON.readTree(parser);
                Conversation conversation = conversation(file, entries, line, entry);
                if (conversation != null) {
                    checkImage(file, conversation, options.promptStyle());
                    conversations.add(conversation);
                }
                entries++;
            }
        } catch (JsonProcessingException e) {
            throw layout(
                    file,
                    "not valid JSON (line " + e.getLocation().getLineNr() + ", column "
                            + e.getLocation().getColumnNr() + ": " + DatasetFile.jsonProblem(e)
                            + "); expected " + LAYOUT);
        } catch (IOException e) {
            throw DatasetFile.unreadable(file, e);
        }
        if (conversations.isEmpty()) {
            throw layout(
                    file, "none of its " + entries + " entries has two or more conversation turns; expected " + LAYOUT);
        }
        ShareGptDataset dataset = new ShareGptDataset(file, tokenizer, options, conversations, entries);
        dataset.requireOneValid();
        return dataset;
    }

    /** The entry's first two turns, or null when it has fewer (vLLM drops those silently). */
    private static Conversation conversation(Path file, int index, long line, JsonNode entry) {
        String where = "entry [" + index + "] (line " + line + ")";
        if (!entry.isObject()) {
            throw layout(file, where + " is " + describe(entry) + "; expected " + LAYOUT);
        }
        JsonNode turns = entry.get("conversations");
        if (turns == null || turns.isNull()) {
            return null;
        }
        if (!turns.isArray()) {
            throw layout(file, where + ": \"conversations\" is " + describe(turns) + "; expected a list of turns");
        }
        if (turns.size() < 2) {
            return null;
        }
        String[] values = new String[2];
        for (int turn = 0; turn < 2; turn++) {
            JsonNode value = turns.get(turn).get("value");
            if (value == null || !value.isTextual()) {
                throw layout(
                        file, where + ": conversations[" + turn + "] needs a string \"value\"; expected " + LAYOUT);
            }
            values[turn] = value.asText();
        }
        JsonNode image = entry.get("image");
        if (image != null && !image.isNull() && !image.isTextual()) {
            throw layout(file, where + ": \"image\" is " + describe(image) + "; expected one path or URL");
        }
        String imageRef = image == null || image.isNull() || image.asText().isEmpty() ? null : image.asText();
        return new Conversation(index, values[0], values[1], imageRef);
    }

    private static void checkImage(Path file, Conversation conversation, PromptStyle style) {
        if (conversation.image() == null) {
            return;
        }
        if (style != PromptStyle.CHAT) {
            throw new IllegalArgumentException("--dataset-path " + file + ": entry [" + conversation.entry()
                    + "] has an image, and only --backend openai-chat (with --endpoint /v1/chat/completions) sends"
                    + " images; use that backend or a file without \"image\" entries");
        }
        ImageUrl.check(file, "entry [" + conversation.entry() + "]", conversation.image());
    }

    private static IllegalArgumentException layout(Path file, String problem) {
        return new IllegalArgumentException("--dataset-path " + file + " is not a ShareGPT file: " + problem);
    }

    private static String describe(JsonToken token) {
        return switch (token) {
            case START_OBJECT -> "an object";
            case VALUE_STRING -> "a string";
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a number";
            case VALUE_TRUE, VALUE_FALSE -> "a boolean";
            case VALUE_NULL -> "null";
            default -> token.asString() == null ? token.name() : "'" + token.asString() + "'";
        };
    }

    private static String describe(JsonNode node) {
        return node.isContainerNode()
                ? (node.isArray() ? "a list" : "an object")
                : "a " + node.getNodeType().name().toLowerCase();
    }

    @Override
    Drawn choose(int numRequests, long seed) {
        List<Conversation> order = new ArrayList<>(conversations);
        if (!fileSampling.disableShuffle()) {
            Collections.shuffle(order, new Random(seed));
        }
        SequenceFilter filter = new SequenceFilter(outputLen != null);
        List<SampledRequest> valid = new ArrayList<>(Math.min(numRequests, order.size()));
        int looked = 0;
        for (Conversation conversation : order) {
            if (valid.size() >= numRequests) {
                break;
            }
            looked++;
            int promptLen = InputIds.count(tokenizer, conversation.prompt());
            int completionLen = outputLen(conversation);
            if (filter.keep(promptLen, completionLen)) {
                valid.add(new SampledRequest(prompt(conversation), promptLen, completionLen, valid.size()));
            }
        }
        List<SampledRequest> requests = Oversampling.fill(valid, numRequests, seed, fileSampling.noOversample());
        return new Drawn(
                requests,
                counts(looked, filter) + "; sampled " + valid.size()
                        + Oversampling.note(valid.size(), numRequests, fileSampling.noOversample()));
    }

    /**
     * Tokenizes entries in file order until one passes the filters, so that a file with none fails
     * before the run; which entries pass does not depend on the seed.
     */
    private void requireOneValid() {
        SequenceFilter filter = new SequenceFilter(outputLen != null);
        int looked = 0;
        for (Conversation conversation : conversations) {
            looked++;
            if (filter.keep(InputIds.count(tokenizer, conversation.prompt()), outputLen(conversation))) {
                return;
            }
        }
        throw new IllegalArgumentException(counts(looked, filter) + "; no conversation is left to send: give a file"
                + " with prompts of " + SequenceFilter.MIN_LEN + " to " + SequenceFilter.MAX_PROMPT_LEN + " tokens"
                + (outputLen == null ? ", or --sharegpt-output-len to skip the completion's check" : ""));
    }

    private int outputLen(Conversation conversation) {
        return outputLen != null ? outputLen : InputIds.count(tokenizer, conversation.completion());
    }

    private String counts(int looked, SequenceFilter filter) {
        return NAME + ": " + file + ": " + entriesRead + " entries, " + (entriesRead - conversations.size())
                + " with fewer than 2 turns dropped; of " + looked + " tokenized, dropped: " + filter.droppedSummary();
    }

    private Prompt prompt(Conversation conversation) {
        if (style != PromptStyle.CHAT) {
            return new Prompt.Text(conversation.prompt());
        }
        List<String> images = conversation.image() == null
                ? List.of()
                : List.of(ImageUrl.of(file, "entry [" + conversation.entry() + "]", conversation.image()));
        return new Prompt.Chat(List.of(ChatMessage.user(conversation.prompt())), images);
    }
}
