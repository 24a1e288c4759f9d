package io.tokenpulse.producer.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tokenpulse.tokenizers.Tokenizer;
import io.tokenpulse.tokenizers.TokenizerLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.ForkJoinPool;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Trace replay's file rules and shared blocks on the real Qwen3 tokenizer from {@code testdata/}. */
class TraceDatasetTest {

    static Tokenizer qwen3;

    @TempDir
    Path dir;

    @BeforeAll
    static void load() {
        qwen3 = new TokenizerLoader(Path.of("no-hub-cache")).load(RandomDatasetTest.QWEN3.toString());
    }

    private TraceDataset trace(double timeScale, String... lines) throws IOException {
        Path file = Files.write(dir.resolve("trace.jsonl"), List.of(lines));
        DatasetOptions options = new DatasetOptions(
                        "trace",
                        file,
                        PromptStyle.COMPLETION,
                        DatasetOptions.Random.DEFAULTS,
                        DatasetOptions.Sonnet.DEFAULTS)
                .withTrace(new DatasetOptions.Trace(timeScale));
        return (TraceDataset) Datasets.create(options, qwen3);
    }

    private static int[] tokens(SampledRequest request) {
        return qwen3.encode(((Prompt.Text) request.prompt()).text());
    }

    @Test
    void requestsSharingAHashIdShareThatBlocksTokensAndGoAtTheScaledTraceTimes() throws IOException {
        List<SampledRequest> requests = trace(
                        2.0,
                        "{\"timestamp\": 1000, \"input_length\": 1300, \"output_length\": 7, \"hash_ids\": [1, 2, 3]}",
                        "{\"timestamp\": 1250, \"input_length\": 1100, \"output_length\": 9, \"hash_ids\": [1, 2, 4]}",
                        "{\"timestamp\": 2000.5, \"input_length\": 300, \"output_length\": 3, \"hash_ids\": [5]}",
                        "{\"timestamp\": 2100, \"input_length\": 700, \"output_length\": 3, \"hash_ids\": [5, 6]}")
                .draw(4, 0)
                .requests();

        assertThat(requests).extracting(SampledRequest::promptLen).containsExactly(1300, 1100, 300, 700);
        assertThat(requests).extracting(SampledRequest::expectedOutputLen).containsExactly(7, 9, 3, 3);
        assertThat(requests)
                .extracting(SampledRequest::arrivalOffsetNs)
                .containsExactly(
                        OptionalLong.of(0),
                        OptionalLong.of(500_000_000),
                        OptionalLong.of(2_001_000_000),
                        OptionalLong.of(2_200_000_000L));
        int[] a = tokens(requests.get(0));
        int[] b = tokens(requests.get(1));
        int[] c = tokens(requests.get(2));
        int[] d = tokens(requests.get(3));
        assertThat(a).hasSize(1300);
        // Blocks 1 and 2 (1024 tokens) are the same, up to the merge at the boundary with block 3 / 4.
        assertThat(Arrays.copyOf(b, 1020)).isEqualTo(Arrays.copyOf(a, 1020));
        assertThat(Arrays.copyOfRange(b, 1030, 1090)).isNotEqualTo(Arrays.copyOfRange(a, 1030, 1090));
        assertThat(Arrays.copyOf(d, 296)).isEqualTo(Arrays.copyOf(c, 296));
        assertThat(Arrays.copyOf(c, 20)).isNotEqualTo(Arrays.copyOf(a, 20));
    }

    @Test
    void theSeedPicksTheBlocksTokensReproducibly() throws IOException {
        String line = "{\"timestamp\": 0, \"input_length\": 64, \"output_length\": 2, \"hash_ids\": [9]}";
        TraceDataset trace = trace(1.0, line);

        assertThat(trace.draw(1, 3).requests())
                .isEqualTo(trace(1.0, line).draw(1, 3).requests());
        assertThat(tokens(trace.draw(1, 4).requests().get(0)))
                .isNotEqualTo(tokens(trace.draw(1, 3).requests().get(0)));
    }

    /** Prompts are fitted on every core: the draw must not depend on which thread fitted which. */
    @Test
    void aDrawOnManyThreadsEqualsTheDrawOnOne() throws Exception {
        String[] lines = new String[40];
        for (int i = 0; i < lines.length; i++) {
            lines[i] = "{\"timestamp\": " + i + ", \"input_length\": " + (300 + 17 * i)
                    + ", \"output_length\": 2, \"hash_ids\": [" + (i % 3) + ", " + (100 + i) + "]}";
        }
        TraceDataset trace = trace(1.0, lines);

        List<SampledRequest> onOne;
        ForkJoinPool one = new ForkJoinPool(1);
        try {
            onOne = one.submit(() -> trace.draw(lines.length, 5).requests()).get();
        } finally {
            one.shutdown();
        }
        ForkJoinPool four = new ForkJoinPool(4);
        try {
            assertThat(four.submit(() -> trace.draw(lines.length, 5).requests()).get())
                    .isEqualTo(onOne);
        } finally {
            four.shutdown();
        }
    }

    @Test
    void outOfOrderTimesAreSortedAndTheLineCountsWhatWasDroppedAndSampled() throws IOException {
        TraceDataset trace = trace(
                1.0,
                "{\"timestamp\": 300, \"input_length\": 10, \"output_length\": 3, \"hash_ids\": [0]}",
                "{\"timestamp\": 100, \"input_length\": 11, \"output_length\": 4, \"hash_ids\": [0]}",
                "",
                "{\"timestamp\": 200, \"input_length\": 12, \"output_length\": 0, \"hash_ids\": [1]}",
                "{\"timestamp\": 150, \"input_length\": 13, \"output_length\": 5}");

        Drawn two = trace.draw(2, 0);
        assertThat(two.requests()).extracting(SampledRequest::promptLen).containsExactly(11, 13);
        assertThat(two.requests())
                .extracting(SampledRequest::arrivalOffsetNs)
                .containsExactly(OptionalLong.of(0), OptionalLong.of(50_000_000));
        assertThat(two.summary())
                .isEqualTo("trace: " + dir.resolve("trace.jsonl") + ": 4 requests, 1 dropped (output_length 0);"
                        + " sampled 2, the first by timestamp, over 0.050 s of trace time, scaled by 1.0"
                        + " (--trace-time-scale); 1 distinct 512-token blocks, 0 uses of a block already used");
        assertThat(trace.draw(5, 0).summary())
                .contains("sampled 3, the first by timestamp, over 0.200 s")
                .contains("1 distinct 512-token blocks, 1 uses of a block already used")
                .endsWith("; only 3 of --num-prompts 5: a trace is sent whole, not oversampled");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "not JSON          | {\"timestamp\": 0,                                                        | line 2 is not JSON",
                "no input_length   | {\"timestamp\": 0, \"output_length\": 3}                                   | line 2: \"input_length\" is missing; expected a whole number >= 1",
                "text timestamp    | {\"timestamp\": \"0\", \"input_length\": 3, \"output_length\": 3}          | line 2: \"timestamp\" is \"0\"; expected ms >= 0",
                "negative output   | {\"timestamp\": 0, \"input_length\": 3, \"output_length\": -1}             | line 2: \"output_length\" is -1; expected a whole number >= 0",
                "hash ids not ints | {\"timestamp\": 0, \"input_length\": 3, \"output_length\": 1, \"hash_ids\": [\"a\"]} | line 2: hash_ids[0] is \"a\"; expected an integer",
                "a list            | [1, 2]                                                                   | line 2 is not a JSON object",
            })
    void aLineInAnotherLayoutNamesTheFileTheLineAndWhatWasExpected(String why, String badLine, String message) {
        String good = "{\"timestamp\": 0, \"input_length\": 3, \"output_length\": 1}";
        assertThatThrownBy(() -> trace(1.0, good, badLine))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--dataset-path " + dir.resolve("trace.jsonl") + " is not a Mooncake trace: ")
                .hasMessageContaining(message);
    }

    @Test
    void aTraceWithNothingToSendIsRefused() {
        assertThatThrownBy(() -> trace(1.0, "")).hasMessageContaining("it has no lines");
        assertThatThrownBy(() -> trace(1.0, "{\"timestamp\": 0, \"input_length\": 3, \"output_length\": 0}"))
                .hasMessageContaining("all of its 1 requests have output_length 0, so none is left to send");
        assertThatThrownBy(() -> new DatasetOptions.Trace(-1).checked())
                .hasMessageContaining("--trace-time-scale must be");
    }
}
