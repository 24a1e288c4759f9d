package io.tokenpulse.producer.dataset;

import com.fasterxml.jackson.core.JsonProcessingException;
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
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
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
 * <p>Block {@code h}'s token ids are drawn from the vocabulary without special tokens by a
 * generator seeded with {@code h} and {@code --seed} and fitted to {@value #BLOCK_TOKENS} tokens
 * ({@link TokenSequencePrompt}), so requests sharing a hash id share that block's tokens and a
 * server's prefix cache sees the trace's reuse. The prompt is its blocks' ids in order (tokens
 * beyond the blocks drawn for the request alone), cut to {@code input_length} minus the special
 * tokens the tokenizer adds, decoded and fitted once more as the {@code random} dataset fits its
 * prompts; only the tokens at a block boundary can re-encode differently.
 */
final class TraceDataset extends SummarizingDataset {

    static final String NAME = "trace";
    static final int BLOCK_TOKENS = 512;

    private static final Logger log = LoggerFactory.getLogger(TraceDataset.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String LAYOUT = "one JSON object per line like {\"timestamp\": 0, \"input_length\": 600,"
            + " \"output_length\": 20, \"hash_ids\": [0, 1]} (timestamp in ms)";

    /** One request of the trace. */
    private record Entry(int line, double timestampMs, int inputLength, int outputLength, long[] hashIds) {}

    private final Path file;
    private final Tokenizer tokenizer;
    private final PromptStyle style;
    private final double timeScale;
    private final int[] allowedIds;
    private final int linesRead;
    private final List<Entry> entries;

    private TraceDataset(Path file, Tokenizer tokenizer, DatasetOptions options, int linesRead, List<Entry> entries) {
        super(NAME);
        this.file = file;
        this.tokenizer = tokenizer;
        this.style = options.promptStyle();
        this.timeScale = options.trace().timeScale();
        this.allowedIds = TokenSequencePrompt.allowedIds(tokenizer);
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
        JsonNode node;
        try {
            node = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw layout(
                    file, "line " + number + " is not JSON (" + DatasetFile.jsonProblem(e) + "); expected " + LAYOUT);
        }
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
        // Each distinct block is fitted once per draw.
        Map<Long, int[]> blockIds = new ConcurrentHashMap<>();
        // Fitting a prompt decodes and re-encodes it (~20 ms for 1 024 tokens): on every core, so that a
        // long trace does not wait minutes on one. A request's own tokens come from a generator seeded
        // by its index and a block's from its hash, so the prompts do not depend on the order.
        List<TokenSequencePrompt> prompts = IntStream.range(0, taken.size())
                .parallel()
                .mapToObj(index -> {
                    Entry entry = taken.get(index);
                    int target = targetOf(entry);
                    SplittableRandom own = new SplittableRandom(mix(seed, -1L - index));
                    return TokenSequencePrompt.fit(
                            tokenizer, ids(entry, target, seed, own, blockIds), target, allowedIds, own);
                })
                .toList();
        List<SampledRequest> requests = new ArrayList<>(taken.size());
        Set<Long> blocks = new HashSet<>();
        int blockUses = 0;
        int mismatchTotal = 0;
        for (Entry entry : taken) {
            int index = requests.size();
            TokenSequencePrompt prompt = prompts.get(index);
            mismatchTotal += Math.abs(prompt.tokenCount() - targetOf(entry));
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

    /** The prompt's length in tokens before the special tokens the server adds. */
    private int targetOf(Entry entry) {
        return Math.max(1, entry.inputLength() - tokenizer.numSpecialTokensToAdd());
    }

    /**
     * The request's token ids before the final fit: its blocks' ids in order, then its own, cut to
     * {@code length}. Each block is fitted to {@value #BLOCK_TOKENS} tokens on its own, so that it
     * keeps its length when the prompt is re-encoded (random ids re-encode to other counts).
     */
    private int[] ids(Entry entry, int length, long seed, SplittableRandom own, Map<Long, int[]> blockIds) {
        int[] ids = new int[length];
        int filled = 0;
        for (long hash : entry.hashIds()) {
            if (filled == length) {
                break;
            }
            int[] block = blockIds.computeIfAbsent(hash, h -> exact(BLOCK_TOKENS, new SplittableRandom(mix(seed, h))));
            int take = Math.min(block.length, length - filled);
            System.arraycopy(block, 0, ids, filled, take);
            filled += take;
        }
        if (filled < length) {
            System.arraycopy(exact(length - filled, own), 0, ids, filled, length - filled);
        }
        return ids;
    }

    private int[] exact(int length, SplittableRandom random) {
        return TokenSequencePrompt.fit(
                        tokenizer, TokenSequencePrompt.draw(length, allowedIds, random), length, allowedIds, random)
                .ids();
    }

    /** A generator seed for one block (or, for negative ids, one request's own tokens) under {@code --seed}. */
    private static long mix(long seed, long id) {
        return seed * 0x9E3779B97F4A7C15L + id;
    }
}
