package io.tokenpulse.producer.dataset;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import io.tokenpulse.tokenizers.Tokenizer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;

/**
 * vLLM's {@code burstgpt} dataset: a BurstGPT trace CSV ({@code --dataset-path}) with the header
 * {@value #HEADER}. Only rows of model {@code GPT-4} with more than 0 response tokens are used.
 *
 * <p>Per run, {@code --num-prompts} rows are drawn with {@code --seed}: without replacement, or with
 * replacement when the file has fewer usable rows. Request {@code i} gets a synthetic prompt of the
 * row's request tokens, made as the random dataset makes them: consecutive non-special token ids
 * starting at {@code i}, fitted to exactly that many tokens ({@link TokenSequencePrompt}; vLLM
 * decodes the ids without re-encoding, so its counted length can differ from what the server
 * sees); its output length is the row's response tokens.
 */
final class BurstGptDataset extends SummarizingDataset {

    static final String NAME = "burstgpt";

    static final String HEADER = "Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type";

    private static final String MODEL = "Model";
    private static final String REQUEST_TOKENS = "Request tokens";
    private static final String RESPONSE_TOKENS = "Response tokens";
    private static final String USED_MODEL = "GPT-4";

    private final Path file;
    private final Tokenizer tokenizer;
    private final PromptStyle style;
    private final int[] allowedIds;
    private final int rowsRead;
    // One entry per usable row: its request and response tokens.
    private final int[] requestTokens;
    private final int[] responseTokens;

    private BurstGptDataset(
            Path file,
            Tokenizer tokenizer,
            PromptStyle style,
            int rowsRead,
            int[] requestTokens,
            int[] responseTokens) {
        super(NAME);
        this.file = file;
        this.tokenizer = tokenizer;
        this.style = style;
        this.allowedIds = TokenSequencePrompt.allowedIds(tokenizer);
        this.rowsRead = rowsRead;
        this.requestTokens = requestTokens;
        this.responseTokens = responseTokens;
    }

    /**
     * Reads the file now, so that a bad path or layout fails before the run starts.
     *
     * @throws IllegalArgumentException with one line naming the file, the line and what was
     *     expected: no path, unreadable file, a missing column, a cell that is not a whole number,
     *     no usable row
     */
    static BurstGptDataset load(DatasetOptions options, Tokenizer tokenizer) {
        Path file = DatasetFile.required(options.datasetPath(), NAME, "/path/to/BurstGPT_without_fails_2.csv");
        CsvMapper csv = CsvMapper.builder()
                .enable(CsvParser.Feature.WRAP_AS_ARRAY, CsvParser.Feature.SKIP_EMPTY_LINES)
                .build();
        List<int[]> usable = new ArrayList<>();
        int rows = 0;
        try (JsonParser parser = csv.createParser(file.toFile())) {
            parser.nextToken(); // the array of records that WRAP_AS_ARRAY puts around the file
            Row header = Row.next(parser);
            if (header == null) {
                throw layout(file, "it is empty; expected the header " + HEADER);
            }
            List<String> names = header.cells().stream().map(String::strip).toList();
            int model = column(file, names, MODEL);
            int request = column(file, names, REQUEST_TOKENS);
            int response = column(file, names, RESPONSE_TOKENS);
            for (Row row = Row.next(parser); row != null; row = Row.next(parser)) {
                rows++;
                int responseLen = wholeNumber(file, row, response, RESPONSE_TOKENS);
                if (cell(file, row, model).strip().equals(USED_MODEL) && responseLen > 0) {
                    usable.add(new int[] {wholeNumber(file, row, request, REQUEST_TOKENS), responseLen});
                }
            }
        } catch (JsonProcessingException e) {
            throw layout(file, "line " + e.getLocation().getLineNr() + ": " + DatasetFile.jsonProblem(e));
        } catch (IOException e) {
            throw DatasetFile.unreadable(file, e);
        }
        if (usable.isEmpty()) {
            throw new IllegalArgumentException("--dataset-path " + file + ": none of its " + rows + " rows is of model "
                    + USED_MODEL + " with more than 0 response tokens, the only rows the burstgpt dataset uses");
        }
        return new BurstGptDataset(
                file,
                tokenizer,
                options.promptStyle(),
                rows,
                usable.stream().mapToInt(r -> r[0]).toArray(),
                usable.stream().mapToInt(r -> r[1]).toArray());
    }

    private static int column(Path file, List<String> header, String name) {
        int at = header.indexOf(name);
        if (at < 0) {
            throw layout(file, "its header has no '" + name + "' column; expected " + HEADER);
        }
        return at;
    }

    private static String cell(Path file, Row row, int column) {
        if (column >= row.cells().size()) {
            throw layout(file, "line " + row.line() + " has " + row.cells().size() + " cells; expected " + HEADER);
        }
        return row.cells().get(column);
    }

    private static int wholeNumber(Path file, Row row, int column, String name) {
        String value = cell(file, row, column).strip();
        try {
            int number = Integer.parseInt(value);
            if (number >= 0) {
                return number;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw layout(file, "line " + row.line() + ": '" + name + "' is '" + value + "'; expected a whole number >= 0");
    }

    /** One CSV record and the line it starts on. */
    private record Row(long line, List<String> cells) {

        /** The next record, or null at the end of the file. */
        static Row next(JsonParser parser) throws IOException {
            if (parser.nextToken() != JsonToken.START_ARRAY) {
                return null;
            }
            // The record's array token has no place in the file; its first cell's is the record's line.
            long line = -1;
            List<String> cells = new ArrayList<>();
            for (JsonToken token = parser.nextToken(); token != JsonToken.END_ARRAY; token = parser.nextToken()) {
                if (cells.isEmpty()) {
                    line = parser.currentTokenLocation().getLineNr();
                }
                cells.add(parser.getText());
            }
            return new Row(line, cells);
        }
    }

    private static IllegalArgumentException layout(Path file, String problem) {
        return new IllegalArgumentException("--dataset-path " + file + " is not a BurstGPT CSV: " + problem);
    }

    @Override
    Drawn choose(int numRequests, long seed) {
        int usable = requestTokens.length;
        boolean withReplacement = numRequests > usable;
        int[] rows =
                withReplacement ? drawWithReplacement(numRequests, seed) : drawWithoutReplacement(numRequests, seed);
        // Top-ups when a re-encoded prompt falls short come from their own stream, so that they
        // never change which rows are drawn.
        SplittableRandom topUps = new SplittableRandom(seed);
        List<SampledRequest> requests = new ArrayList<>(numRequests);
        int mismatchTotal = 0;
        for (int i = 0; i < numRequests; i++) {
            int inputLen = requestTokens[rows[i]];
            int[] ids = new int[inputLen];
            for (int k = 0; k < inputLen; k++) {
                ids[k] = allowedIds[(int) (((long) i + k) % allowedIds.length)];
            }
            TokenSequencePrompt prompt = TokenSequencePrompt.fit(tokenizer, ids, inputLen, allowedIds, topUps);
            mismatchTotal += Math.abs(prompt.tokenCount() - inputLen);
            requests.add(new SampledRequest(
                    Prompt.of(prompt.text(), style), prompt.tokenCount(), responseTokens[rows[i]], i));
        }
        String summary = NAME + ": " + file + ": " + rowsRead + " rows, " + (rowsRead - usable)
                + " dropped (not model " + USED_MODEL + " or 0 response tokens); sampled " + numRequests + " of "
                + usable
                + (withReplacement
                        ? " with replacement (the file has fewer usable rows than --num-prompts)"
                        : " without replacement")
                + (mismatchTotal == 0
                        ? ""
                        : "; prompts are " + mismatchTotal + " tokens off their rows' request tokens"
                                + " after decoding and re-encoding");
        return new Drawn(requests, summary);
    }

    private int[] drawWithoutReplacement(int count, long seed) {
        int[] order = new int[requestTokens.length];
        Arrays.setAll(order, i -> i);
        Random random = new Random(seed);
        // A partial Fisher-Yates shuffle: the first count slots are a uniform draw without replacement.
        for (int i = 0; i < count; i++) {
            int j = i + random.nextInt(order.length - i);
            int swap = order[i];
            order[i] = order[j];
            order[j] = swap;
        }
        return Arrays.copyOf(order, count);
    }

    private int[] drawWithReplacement(int count, long seed) {
        Random random = new Random(seed);
        int[] rows = new int[count];
        Arrays.setAll(rows, i -> random.nextInt(requestTokens.length));
        return rows;
    }
}
