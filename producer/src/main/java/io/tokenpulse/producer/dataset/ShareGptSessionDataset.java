package io.tokenpulse.producer.dataset;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tokenpulse.tokenizers.Tokenizer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * {@code --dataset-name sharegpt --multi-turn}: every ShareGPT entry is one session that sends every
 * human turn of its conversation, not only the first (as vLLM's multi-turn benchmark and AIPerf
 * replay conversations).
 *
 * <p>Reading an entry's {@code conversations}: a leading {@code system} turn is the system prompt;
 * each {@code human}/{@code user} turn is a user turn, answered by the turn after it (any other
 * {@code from}: {@code gpt}, {@code assistant}, ...); consecutive turns of one side are joined by a
 * newline; leading answers with no question are skipped. A last question without an answer is sent
 * only with {@code --sharegpt-output-len} (otherwise there is no length to ask for). Each turn asks for
 * its recorded answer's length in tokens, or {@code --sharegpt-output-len}.
 *
 * <p>Sessions are shuffled with {@code --seed} (unless {@code --disable-shuffle}) and the first
 * {@code --num-prompts} taken, topped up by {@link Oversampling}. No length filter applies: a session's
 * later turns grow with its history by design.
 *
 * <p>Bad input, before the run, one line naming the file and the entry: an entry with no turns (an
 * empty or missing {@code conversations}) or with no question that can be sent.
 */
final class ShareGptSessionDataset implements Dataset {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String RULE = "a --multi-turn session needs at least one human turn followed by an answer";

    /** One entry as read: its system prompt and its question/answer pairs (answer null: none recorded). */
    private record Entry(String systemPrompt, List<String[]> pairs) {}

    private final Tokenizer tokenizer;
    private final Integer outputLen;
    private final DatasetOptions.FileSampling fileSampling;
    private final List<Entry> entries;

    private ShareGptSessionDataset(Tokenizer tokenizer, DatasetOptions options, List<Entry> entries) {
        this.tokenizer = tokenizer;
        this.outputLen = options.shareGpt().outputLen();
        this.fileSampling = options.fileSampling();
        this.entries = List.copyOf(entries);
    }

    /**
     * Reads the file now.
     *
     * @throws IllegalArgumentException with one line naming the file, the entry (index and line) and
     *     the rule it breaks
     */
    static ShareGptSessionDataset load(DatasetOptions options, Tokenizer tokenizer) {
        options.shareGpt().checked();
        SessionDatasets.requireChat(ShareGptDataset.NAME + " --multi-turn", options.promptStyle());
        Path file = DatasetFile.required(
                options.datasetPath(), ShareGptDataset.NAME, "/path/to/ShareGPT_V3_unfiltered_cleaned_split.json");
        boolean sendUnanswered = options.shareGpt().outputLen() != null;
        List<Entry> entries = new ArrayList<>();
        try (InputStream in = Files.newInputStream(file);
                JsonParser parser = JSON.createParser(in)) {
            if (parser.nextToken() != JsonToken.START_ARRAY) {
                throw bad(file, "expected a JSON array of {\"conversations\": [...]} entries");
            }
            for (JsonToken token = parser.nextToken(); token != JsonToken.END_ARRAY; token = parser.nextToken()) {
                long line = parser.currentLocation().getLineNr();
                String where = "entry [" + entries.size() + "] (line " + line + ")";
                entries.add(entry(file, where, JSON.readTree(parser), sendUnanswered));
            }
        } catch (JsonProcessingException e) {
            throw bad(
                    file,
                    "not valid JSON (line " + e.getLocation().getLineNr() + ", column "
                            + e.getLocation().getColumnNr() + ": " + DatasetFile.jsonProblem(e) + ")");
        } catch (IOException e) {
            throw DatasetFile.unreadable(file, e);
        }
        if (entries.isEmpty()) {
            throw bad(file, "the file has no entries; " + RULE);
        }
        return new ShareGptSessionDataset(tokenizer, options, entries);
    }

    /** One entry's turns; an entry that has none to send is an error, not skipped: the user asked for sessions. */
    static Entry entry(Path file, String where, JsonNode node, boolean sendUnanswered) {
        JsonNode turns = node.isObject() ? node.get("conversations") : null;
        if (turns == null || !turns.isArray() || turns.isEmpty()) {
            throw bad(file, where + " has no turns (\"conversations\" is missing, empty or not a list); " + RULE);
        }
        String system = "";
        List<String[]> pairs = new ArrayList<>();
        String question = null;
        String answer = null;
        for (int i = 0; i < turns.size(); i++) {
            JsonNode turn = turns.get(i);
            JsonNode value = turn.get("value");
            if (value == null || !value.isTextual()) {
                throw bad(file, where + ": conversations[" + i + "] needs a string \"value\"");
            }
            String from = turn.path("from").asText("").toLowerCase(Locale.ROOT);
            String text = value.asText();
            if (from.equals("system") && pairs.isEmpty() && question == null) {
                system = system.isEmpty() ? text : system + "\n" + text;
            } else if (from.equals("human") || from.equals("user")) {
                if (answer != null) {
                    pairs.add(new String[] {question, answer});
                    question = null;
                    answer = null;
                }
                question = question == null ? text : question + "\n" + text;
            } else if (question != null) {
                answer = answer == null ? text : answer + "\n" + text;
            }
        }
        if (question != null && (answer != null || sendUnanswered)) {
            pairs.add(new String[] {question, answer});
        }
        if (pairs.isEmpty()) {
            throw bad(
                    file,
                    where + " has no human turn with an answer; " + RULE
                            + " (or give --sharegpt-output-len to send an unanswered one)");
        }
        return new Entry(system, pairs);
    }

    private static IllegalArgumentException bad(Path file, String problem) {
        return new IllegalArgumentException(
                "--dataset-path " + file + " is not a multi-turn ShareGPT file: " + problem);
    }

    @Override
    public String name() {
        return ShareGptDataset.NAME;
    }

    @Override
    public List<SampledRequest> sample(int numRequests, long seed) {
        List<Entry> order = new ArrayList<>(entries);
        if (!fileSampling.disableShuffle()) {
            Collections.shuffle(order, new Random(seed));
        }
        List<SampledRequest> sessions = new ArrayList<>(Math.min(numRequests, order.size()));
        for (Entry entry : order.subList(0, Math.min(numRequests, order.size()))) {
            sessions.add(SampledRequest.session(conversation(entry), tokenizer, sessions.size()));
        }
        return Oversampling.fill(sessions, numRequests, seed, fileSampling.noOversample());
    }

    private Conversation conversation(Entry entry) {
        List<Conversation.Turn> turns = new ArrayList<>(entry.pairs().size());
        for (String[] pair : entry.pairs()) {
            String answer = pair[1] == null ? "" : pair[1];
            int len = outputLen != null ? outputLen : Math.max(1, InputIds.count(tokenizer, answer));
            turns.add(new Conversation.Turn(pair[0], answer, len));
        }
        return new Conversation(entry.systemPrompt(), turns);
    }
}
