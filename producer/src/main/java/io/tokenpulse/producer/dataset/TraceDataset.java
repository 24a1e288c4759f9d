package io.tokenpulse.producer.dataset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tokenpulse.tokenizers.Tokenizer;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Trace replay ({@code --dataset-name trace}): a Mooncake-format JSONL file ({@code --dataset-path}),
 * one request per line, e.g. {@code {"timestamp": 27482, "input_length": 6955, "output_length": 52,
 * "hash_ids": [46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 2353]}}: the arrival time in ms,
 * the prompt and output lengths in tokens, and one id per {@value #BLOCK_TOKENS}-token block of the
 * prompt, equal ids meaning equal blocks.
 *
 * <p>Requests are sent at the trace's own times, not on the {@code --request-rate} schedule: request
 * {@code i} is due {@code (timestamp_i - timestamp_0) * --trace-time-scale} ms after the start,
 * {@code timestamp_0} the earliest. A file out of time order is sorted (stable) with one warning.
 * The first {@code --num-prompts} requests by time are sent; a shorter trace is sent whole, never
 * oversampled (repeats would break its times). Lines with {@code output_length} 0 are dropped.
 *
 * <p>The prompts come from the input lengths and hash ids ({@link HashBlockPrompts}), so requests
 * sharing a hash id share that block's tokens and a server's prefix cache sees the trace's reuse.
 */
final class TraceDataset extends SummarizingDataset {

    static final String NAME = "trace";
    static final int BLOCK_TOKENS = HashBlockPrompts.BLOCK_TOKENS;

    private static final Logger log = LoggerFactory.getLogger(TraceDataset.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String LAYOUT = "one JSON object per line like {\"timestamp\": 0, \"input_length\": 600,"
            + " \"output_length\": 20, \"hash_ids\": [0, 1]} (timestamp in ms)";

    /** One request of the trace. */
    private record Entry(int line, double timestampMs, int inputLength, int outputLength, long[] hashIds) {}

    private final Path file;
    private final HashBlockPrompts prompts;
    private final PromptStyle style;
    private final double timeScale;
    private final int linesRead;
    private final List<Entry> entries;

    private TraceDataset(Path file, Tokenizer tokenizer, DatasetOptions options, int linesRead, List<Entry> entries) {
        super(NAME);
        this.file = file;
        this.prompts = new HashBlockPrompts(tokenizer);
        this.style = options.promptStyle();
        this.timeScale = options.trace().timeScale();
        this.linesRead = linesRead;
        this.entries = List.copyOf(entries);
    }

    /**
     * Reads the file now, so that a bad path or layout fails before the run starts.
     *
     * @throws IllegalArgumentException with one line naming the file, the line and what was
     *     expected: no path, unreadable file, a line that is not such an object, no line left
     */
    static TraceDataset load(DatasetOptions options, Tokenizer tokenizer) {
        options.trace().checked();
        Path file = DatasetFile.required(options.datasetPath(), NAME, "/path/to/mooncake_trace.jsonl");
        List<Entry> entries = new ArrayList<>();
        int lines = 0;
        Entry outOfOrder = null;
        double latestMs = Double.NEGATIVE_INFINITY;
        try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            int number = 0;
            for (String text = reader.readLine(); text != null; text = reader.readLine()) {
                number++;
                if (text.isBlank()) {
                    continue;
                }
                lines++;
                Entry entry = entry(file, number, text);
                if (entry.timestampMs() < latestMs && outOfOrder == null) {
                    outOfOrder = entry;
                }
                latestMs = Math.max(latestMs, entry.timestampMs());
                if (entry.outputLength() > 0) {
                    entries.add(entry);
                }
            }
        } catch (IOException e) {
            throw DatasetFile.unreadable(file, e);
        }
        if (lines == 0) {
            throw layout(file, "it has no lines; expected " + LAYOUT);
        }
        if (entries.isEmpty()) {
            throw new IllegalArgumentException("--dataset-path " + file + ": all of its " + lines
                    + " requests have output_length 0, so none is left to send");
        }
        if (outOfOrder != null) {
            log.warn(
                    "trace {}: timestamps are out of order (line {} at {} ms comes after a later one); sorted by"
                            + " timestamp",
                    file,
                    outOfOrder.line(),
                    ms(outOfOrder.timestampMs()));
            entries.sort(Comparator.comparingDouble(Entry::timestampMs));
        }
        return new TraceDataset(file, tokenizer, options, lines, entries);
    }

    private static Entry entry(Path file, int number, String text) {
        JsonNode node =
                DatasetFile.jsonLine(JSON, text, number, problem -> layout(file, problem + "; expected " + LAYOUT));
        if (!node.isObject()) {
            throw layout(file, "line " + number + " is not a JSON object; expected " + LAYOUT);
        }
        JsonNode timestamp = node.get("timestamp");
        if (timestamp == null || !timestamp.isNumber() || !(timestamp.doubleValue() >= 0)) {
            throw layout(file, "line " + number + ": \"timestamp\" is " + timestamp + "; expected ms >= 0");
        }
        int input = whole(file, number, node, "input_length", 1);
        int output = whole(file, number, node, "output_length", 0);
        JsonNode hashes = node.get("hash_ids");
        long[] hashIds = new long[hashes == null || hashes.isNull() ? 0 : hashes.size()];
        if (hashes != null && !hashes.isNull()) {
            if (!hashes.isArray()) {
                throw layout(file, "line " + number + ": \"hash_ids\" is " + hashes + "; expected a list of integers");
            }
            for (int i = 0; i < hashIds.length; i++) {
                if (!hashes.get(i).isIntegralNumber()) {
                    throw layout(
                            file,
                            "line " + number + ": hash_ids[" + i + "] is " + hashes.get(i) + "; expected an integer");
                }
                hashIds[i] = hashes.get(i).longValue();
            }
        }
        return new Entry(number, timestamp.doubleValue(), input, output, hashIds);
    }

    private static int whole(Path file, int number, JsonNode node, String field, int min) {
        JsonNode value = node.get(field);
        if (value == null || !value.canConvertToInt() || !value.isIntegralNumber() || value.intValue() < min) {
            throw layout(
                    file,
                    "line " + number + ": \"" + field + "\" is " + (value == null ? "missing" : value)
                            + "; expected a whole number >= " + min + " (" + LAYOUT + ")");
        }
        return value.intValue();
    }

    private static IllegalArgumentException layout(Path file, String problem) {
        return new IllegalArgumentException("--dataset-path " + file + " is not a Mooncake trace: " + problem);
    }

    private static String ms(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }

    @Override
    Drawn choose(int numRequests, long seed) {
        List<Entry> taken = entries.subList(0, Math.min(numRequests, entries.size()));
        double startMs = taken.isEmpty() ? 0 : taken.get(0).timestampMs();
        List<TokenSequencePrompt> fitted = prompts.fit(
                taken.stream()
                        .map(entry -> new HashBlockPrompts.Line(entry.inputLength(), entry.hashIds()))
                        .toList(),
                seed);
        List<SampledRequest> requests = new ArrayList<>(taken.size());
        Set<Long> blocks = new HashSet<>();
        int blockUses = 0;
        int mismatchTotal = 0;
        for (Entry entry : taken) {
            int index = requests.size();
            TokenSequencePrompt prompt = fitted.get(index);
            mismatchTotal += Math.abs(prompt.tokenCount() - prompts.targetOf(entry.inputLength()));
            for (long hash : entry.hashIds()) {
                blocks.add(hash);
            }
            blockUses += entry.hashIds().length;
            long offsetNs = Math.round((entry.timestampMs() - startMs) * timeScale * 1e6);
            requests.add(new SampledRequest(
                    Prompt.of(prompt.text(), style),
                    prompt.tokenCount(),
                    entry.outputLength(),
                    index,
                    OptionalLong.of(offsetNs)));
        }
        double spanS = taken.isEmpty() ? 0 : (taken.get(taken.size() - 1).timestampMs() - startMs) / 1000.0;
        String summary = NAME + ": " + file + ": " + linesRead + " requests, " + (linesRead - entries.size())
                + " dropped (output_length 0); sampled " + taken.size() + ", the first by timestamp, over "
                + String.format(Locale.ROOT, "%.3f", spanS) + " s of trace time, scaled by " + timeScale
                + " (--trace-time-scale); " + blocks.size() + " distinct " + BLOCK_TOKENS + "-token blocks, "
                + (blockUses - blocks.size()) + " uses of a block already used"
                + (taken.size() < numRequests
                        ? "; only " + taken.size() + " of --num-prompts " + numRequests
                                + ": a trace is sent whole, not oversampled"
                        : "")
                + (mismatchTotal == 0
                        ? ""
                        : "; prompts are " + mismatchTotal + " tokens off their input_length after decoding and"
                                + " re-encoding");
        return new Drawn(requests, summary);
    }
}
