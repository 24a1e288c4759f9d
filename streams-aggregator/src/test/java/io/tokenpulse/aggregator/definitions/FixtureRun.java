package io.tokenpulse.aggregator.definitions;

import io.tokenpulse.schemas.avro.RequestMetrics;
import java.util.List;
import java.util.Map;

/**
 * The run every definition test scores, in ms from the run's start (converted to ns). The expected
 * values in the tests are each tool's arithmetic on these timings, worked out with numpy 2.4 by the
 * formulas the tests cite.
 * <pre>
 * request  sent  events (ms; * = empty text)         end  N  prompt  success
 * A           0  100 110 130 160                      165  4      10  yes
 * B          50  250 255 265                          270  3      20  yes
 * C         100  400* 420 430 450 480 500             510  5      30  yes
 * D         200  -                                    300  0      40  no (HTTP error)
 * E         300  600 610                              615  2      50  no (cut off)
 * run: 0 .. 1000 ms
 * </pre>
 */
final class FixtureRun {

    private FixtureRun() {}

    static final TimedRun RUN = new TimedRun(
            0,
            ms(1000),
            List.of(
                    request(0, new long[] {100, 110, 130, 160}, new boolean[4], 165, 4, 10, true),
                    request(50, new long[] {250, 255, 265}, new boolean[3], 270, 3, 20, true),
                    request(
                            100,
                            new long[] {400, 420, 430, 450, 480, 500},
                            new boolean[] {true, false, false, false, false, false},
                            510,
                            5,
                            30,
                            true),
                    request(200, new long[0], new boolean[0], 300, 0, 40, false),
                    request(300, new long[] {600, 610}, new boolean[2], 615, 2, 50, false)));

    static long ms(long ms) {
        return ms * 1_000_000L;
    }

    static TimedRequest request(
            long sentMs, long[] chunksMs, boolean[] empty, long endMs, int n, int prompt, boolean success) {
        long[] chunks = java.util.Arrays.stream(chunksMs).map(FixtureRun::ms).toArray();
        return new TimedRequest(ms(sentMs), chunks, empty, ms(endMs), n, prompt, success);
    }

    /** When {@link #stored} requests were sent: ns since the epoch, as the stored records keep it. */
    static final long STORED_SENT_NS = ms(1_700_000_000_000L);

    /**
     * A successful request's metrics as the aggregator stores them, sent at {@link #STORED_SENT_NS},
     * with 3 output tokens and 10 input tokens; the caller adds what the test is about.
     *
     * @param ttftMs     its first event, ms after the send
     * @param itlMs      the gaps to each later event, ms
     * @param finishedMs its end, ms after the send
     */
    static RequestMetrics.Builder stored(long ttftMs, List<Long> itlMs, long finishedMs) {
        long e2elMs = ttftMs + itlMs.stream().mapToLong(Long::longValue).sum();
        return RequestMetrics.newBuilder()
                .setRunId("r1")
                .setShardIndex(0)
                .setRequestIndex(0)
                .setRequestId("id-0")
                .setSuccess(true)
                .setHttpStatus(200)
                .setError("")
                .setPromptLen(10)
                .setOutputTokens(3)
                .setTtftNs(ms(ttftMs))
                .setE2elNs(ms(e2elMs))
                .setTpotNs(ms(e2elMs - ttftMs) / 2.0)
                .setTokenLatencyNs(ms(e2elMs) / 3.0)
                .setQueueDelayNs(0)
                .setConnectNs(0)
                .setItlNs(itlMs.stream().map(FixtureRun::ms).toList())
                .setSentEpochNs(STORED_SENT_NS)
                .setFinishedEpochNs(STORED_SENT_NS + ms(finishedMs));
    }

    /** Asserts each expected row's value, and that the tool reports no row beyond them. */
    static void assertScores(ToolScores scores, Map<ScoreRow, Double> expected) {
        org.junit.jupiter.api.Assertions.assertEquals(
                expected.keySet(), scores.values().keySet(), "rows reported");
        expected.forEach((row, value) -> org.junit.jupiter.api.Assertions.assertEquals(
                value, scores.get(row).getAsDouble(), 1e-9, row.label()));
    }
}
